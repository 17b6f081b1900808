import Foundation

/// Counts a harvest keeps while pages are in flight, read by progress displays and the summary.
package final class HarvestCounters: @unchecked Sendable {
    private let lock = NSLock()
    private var _requests = 0
    private var _cacheHits = 0
    private var _retries = 0
    private var _missing: [String] = []

    package init() {}

    /// Responses fetched from the network.
    package var requests: Int { lock.withLock { _requests } }
    /// Responses read from the page cache.
    package var cacheHits: Int { lock.withLock { _cacheHits } }
    /// Requests sent again after a transient failure.
    package var retries: Int { lock.withLock { _retries } }
    /// Pages `--offline` could not find in the cache.
    package var missing: [String] { lock.withLock { _missing } }

    func countRequest() { lock.withLock { _requests += 1 } }
    func countCacheHit() { lock.withLock { _cacheHits += 1 } }
    func countRetry() { lock.withLock { _retries += 1 } }
    func countMissing(_ page: String) { lock.withLock { _missing.append(page) } }
}
