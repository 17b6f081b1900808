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

    package func clock(from response: SourceResponse) throws(HarvestFailure) -> ServerClock {
        if let failure = self.failure(for: response) { throw failure }
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
        return ServerClock(now: now, daysOnly: !seconds, earliest: parsed.identify.earliestDatestamp)
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
