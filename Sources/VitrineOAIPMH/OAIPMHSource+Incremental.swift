import Foundation
import VitrineCore
import VitrineSources

/// Incremental harvests: `Identify` tells the server's clock and the granularity of `from`/`until`; a window of
/// changes is the same `ListRecords` with `from` and `until` (deleted records included, as headers).
extension OAIPMHSource: WindowedSource {
    /// Hosts asked for fewer chains at once than `--concurrency` allows, unless `--chains` says otherwise.
    package static let chainCeilings = ["data.rijksmuseum.nl": 4]

    /// The Rijksmuseum's data service is asked for at most 4 chains at once (one public service for everybody);
    /// any other repository for as many as `--concurrency`.
    package var chainCeiling: Int { baseURL.host.flatMap { Self.chainCeilings[$0.lowercased()] } ?? Int.max }
}

extension OAIPMHSource: IncrementalSource {
    /// With `--until` the collection is what stood at that date: a record changed since has left it, which only
    /// a full harvest sees.
    package var listsChanges: Bool { until == nil }

    package func clockRequest() throws(HarvestFailure) -> SourceRequest {
        SourceRequest(
            url: try QueryString.url(baseURL, adding: [("verb", "Identify")]),
            headers: ["Accept": "text/xml, application/xml"])
    }

    package func clock(from sent: SourceResponse) throws(HarvestFailure) -> ServerClock {
        if let failure = self.failure(for: sent) { throw failure }
        let response = OAIPMHSource.inUTF8(sent)
        // A maintenance page sent with 200 is retried, as on a list's pages.
        if let failure = OAIPMHSource.unavailablePage(response) { throw failure }
        let parsed: OAIPMHResponse
        do {
            parsed = try OAIPMHPageParser.parse(response.body)
        } catch {
            throw .undecodablePage("the answer to Identify: \(error.text)")
        }
        if let error = parsed.error {
            throw .api("the repository answered Identify with an OAI-PMH error (\(error.code): \(error.message))")
        }
        guard let now = parsed.responseDate, Self.isDatestamp(now) || Self.isDatestamp(String(now.prefix(10))) else {
            throw .api(
                "the repository's answer to Identify has no usable responseDate "
                    + "('\(PrintableText.clean(parsed.responseDate ?? ""))'), so Vitrine cannot tell which "
                    + "records changed; run with --full")
        }
        // The protocol's two granularities; a repository that names neither is asked by the day, which can only
        // ask for more than needed, never less.
        let seconds = parsed.identify.granularity == "YYYY-MM-DDThh:mm:ssZ"
        let name = parsed.identify.repositoryName.flatMap { $0.isEmpty ? nil : $0 }
        // Only a repository that keeps its deleted records' headers lists every deletion among the changes.
        let deletions = parsed.identify.deletedRecord.map(PrintableText.clean) ?? ""
        return ServerClock(
            now: now, daysOnly: !seconds, earliest: parsed.identify.earliestDatestamp, repositoryName: name,
            missesDeletions: deletions == "persistent"
                ? nil
                : "the repository says it keeps no lasting record of deletions (deletedRecord "
                    + "'\(deletions.isEmpty ? "not stated" : String(deletions.prefix(40)))')")
    }

    package func changes(in window: ChangeWindow) -> any CollectionSource {
        var changes = self
        // `--from` and `--until` still bound the collection; an open side of the window stays theirs.
        func later(_ a: String, _ b: String) -> String { a.utf8.lexicographicallyPrecedes(b.utf8) ? b : a }
        func earlier(_ a: String, _ b: String) -> String { a.utf8.lexicographicallyPrecedes(b.utf8) ? a : b }
        changes.from = window.from.map { asked in from.map { later($0, asked) } ?? asked } ?? from
        changes.until = window.until.map { asked in until.map { earlier($0, asked) } ?? asked } ?? until
        return changes
    }
}

extension OAIPMHSource {
    /// With `--set`: `ListIdentifiers` of every record changed since `from`, without the set.
    package func leavers(since from: String) -> (any CollectionSource)? {
        guard let set else { return nil }
        return OAISetLeavers(listing: self, set: set, from: from)
    }
}

/// The headers of every record of a repository changed since `from` (`ListIdentifiers`, no `set`): a record whose
/// header does not name the set (or a set inside it, `set:part`) has left the collection, and is listed as
/// deleted, as is a deleted one; the set's own records come with their metadata in the set's listing.
struct OAISetLeavers: CollectionSource {
    let listing: OAIPMHSource
    let set: String
    let from: String

    var descriptor: SourceDescriptor { listing.descriptor }
    var firstPage: PageCursor { .token(nil) }

    func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        var parameters: [(String, String)] = [("verb", "ListIdentifiers")]
        if let token = try page.resumptionToken() {
            parameters.append(("resumptionToken", token))
        } else {
            parameters += [("metadataPrefix", listing.metadataPrefix), ("from", from)]
        }
        return SourceRequest(
            url: try QueryString.url(listing.baseURL, adding: parameters),
            headers: ["Accept": "text/xml, application/xml"])
    }

    func failure(for response: SourceResponse) -> HarvestFailure? { listing.failure(for: response) }

    func peekNext(_ response: SourceResponse) -> PageCursor? { listing.peekNext(response) }

    func decode(_ sent: SourceResponse, page: PageCursor) async throws(HarvestFailure) -> SourcePage {
        let response = OAIPMHSource.inUTF8(sent)
        if let failure = OAIPMHSource.unavailablePage(response) { throw failure }
        let parsed: OAIPMHResponse
        do {
            parsed = try await OAIPMHPageParser.parse(response.body, yieldingEvery: OAIPMHSource.parseSlice)
        } catch {
            throw .undecodablePage(error.text)
        }
        if let error = parsed.error {
            switch error.code {
            case "noRecordsMatch" where page == .token(nil):
                return SourcePage(records: [], continuation: .end, reportedTotal: 0, serverTime: parsed.responseDate)
            case "badResumptionToken", "noRecordsMatch":
                return SourcePage(
                    records: [],
                    continuation: .expiredToken(
                        "the repository rejected the resumption token of the list of records changed since \(from) "
                            + "(\(error.code): \(error.message)) even after the list was started over; run the export "
                            + "again later"),
                    reportedTotal: error.code == "noRecordsMatch" ? 0 : nil)
            default:
                let reason =
                    "the repository refused the list of records changed since \(from), which tells the records "
                    + "that left --set \(set) (\(error.code): \(error.message))"
                // Arguments refused at once (dates it takes for ListRecords, or a set it requires): a full run.
                throw page == .token(nil) && error.code == "badArgument" ? .datesRefused(reason) : .api(reason)
            }
        }
        guard (200..<300).contains(response.status) else { throw .httpStatus(response.status, response.bodySnippet) }
        // A list of changes that holds a record changed before `from` ignores it, and would take every unchanged
        // member whose header names no set for one that left: a full run takes over.
        if page == .token(nil), let start = Datestamp.seconds(from),
            let early = parsed.records.first(where: { header in
                !header.isDeleted && header.datestamp.flatMap(Datestamp.seconds).map { $0 < start } == true
            })
        {
            throw .datesRefused(
                "the repository ignores from in ListIdentifiers: asked for the records changed since \(from), it "
                    + "listed one changed at \(early.datestamp ?? "")")
        }
        let records: [RecordOutcome] = parsed.records.compactMap { header in
            guard !header.identifier.isEmpty else { return nil }
            let member = header.sets.contains { $0 == set || $0.hasPrefix(set + ":") }
            guard header.isDeleted || !member else { return nil }
            return .deleted(recordID: header.identifier, datestamp: header.datestamp)
        }
        var listing = SourcePage(
            records: records, continuation: parsed.resumptionToken.map { .next(.token($0)) } ?? .end,
            reportedTotal: parsed.completeListSize, serverTime: parsed.responseDate)
        listing.listed = parsed.records.count
        return listing
    }
}
