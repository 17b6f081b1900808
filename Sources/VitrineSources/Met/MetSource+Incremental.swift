import Foundation
import VitrineCore

/// Incremental runs: `/v1/objects?metadataDate=YYYY-MM-DD` lists the ids changed since a day. The Met has no
/// `Identify`: its clock is the `Date` header of a small request (the departments). Removed ids are not listed as
/// changed: the list of every id, asked for first, tells which stored objects are gone and which listed ones the
/// store lacks (fetched too); an object listed as changed but not in it is not in the collection.
extension MetSource: IncrementalSource {
    /// A search cannot be asked for changes.
    package var listsChanges: Bool { query == nil && artist == nil }

    package func clockRequest() throws(HarvestFailure) -> SourceRequest {
        SourceRequest(
            url: try QueryString.url(baseURL.appendingPathComponent("v1/departments"), adding: []),
            headers: ["Accept": "application/json"])
    }

    package func clock(from response: SourceResponse) throws(HarvestFailure) -> ServerClock {
        if let failure = self.failure(for: response) { throw failure }
        guard let day = Self.serverDay(response) else {
            throw .api(
                "The Met's answer has no Date header, so Vitrine cannot tell which objects changed by its clock; "
                    + "run with --full")
        }
        return ServerClock(now: day, daysOnly: true)
    }

    /// The day of the server's clock (`YYYY-MM-DD`, UTC) from a response's `Date` header.
    static func serverDay(_ response: SourceResponse) -> String? {
        guard let header = response.headers["date"], let date = HTTPDate.parse(header) else { return nil }
        return Datestamp.text(Int(date.timeIntervalSince1970.rounded(.down)), daysOnly: true)
    }

    /// The Met takes no end date: changes after `until` are listed too, and asked for again next time.
    package func changes(in window: ChangeWindow) -> any CollectionSource {
        changes(in: window, stored: [])
    }

    /// The objects the list of every id holds and the store does not (skipped before, or listed late) are
    /// fetched with the changed ones.
    package var needsStoredKeys: Bool { true }

    package func changes(in window: ChangeWindow, stored: Set<String>) -> any CollectionSource {
        var changes = self
        changes.changedSince = window.from
        changes.stored = stored
        return changes
    }
}
