import Foundation

/// Where successful responses are kept between runs, keyed by the request without its secrets: what makes a
/// harvest resumable and `--offline` possible. The file implementation lives in `VitrineSources`.
package protocol PageCache: Sendable {
    /// The stored response for `request` if one is fresh enough, else `nil`.
    func response(for request: SourceRequest) -> SourceResponse?
    /// Stores a response that decoded well. Written atomically: a run killed mid-write leaves no torn entry.
    func store(_ response: SourceResponse, for request: SourceRequest)
    /// Forgets `request`'s entry (an expired OAI-PMH token chain, a stored page that no longer decodes).
    func remove(_ request: SourceRequest)
}

/// How a harvest uses the page cache.
package enum CacheMode: Sendable, Equatable {
    /// Read fresh entries, fetch and store the rest.
    case use
    /// Fetch everything, store it (`--refresh`).
    case refresh
    /// Read entries whatever their age; never fetch (`--offline`).
    case offline
}

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
