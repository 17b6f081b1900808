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
        // `--from` still bounds the collection.
        changes.from =
            from.map { $0.utf8.lexicographicallyPrecedes(window.from.utf8) ? window.from : $0 } ?? window.from
        changes.until = window.until
        return changes
    }
}
