/// Counts a harvest keeps while pages are in flight, read by progress displays and the summary.
package final class HarvestCounters: Sendable {
    private struct Counts {
        var requests = 0
        var cacheHits = 0
        var retries = 0
        var windows: WindowCounts?
    }

    private let counts = Locked(Counts())

    package init() {}

    /// Responses fetched from the network.
    package var requests: Int { counts.withLock { $0.requests } }
    /// Responses read from the page cache.
    package var cacheHits: Int { counts.withLock { $0.cacheHits } }
    /// Requests sent again after a transient failure.
    package var retries: Int { counts.withLock { $0.retries } }

    func countRequest() { counts.withLock { $0.requests += 1 } }
    func countCacheHit() { counts.withLock { $0.cacheHits += 1 } }
    func countRetry() { counts.withLock { $0.retries += 1 } }
    /// Pages read from the cache and then not used (a list started over, a stored page fetched again).
    func takeBackCacheHits(_ count: Int) { counts.withLock { $0.cacheHits = max(0, $0.cacheHits - count) } }

    /// Date windows of a windowed harvest, as they stand; `nil` for any other harvest.
    package var windows: WindowCounts? { counts.withLock { $0.windows } }
    func setWindows(_ windows: WindowCounts) { counts.withLock { $0.windows = windows } }
}

/// Where the date windows of a windowed harvest stand.
package struct WindowCounts: Sendable, Equatable {
    package var planned: Int
    package var running: Int
    package var done: Int
}
