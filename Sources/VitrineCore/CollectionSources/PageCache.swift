/// Where successful responses are kept between runs, keyed by the request without its secrets: what makes a
/// harvest resumable and `--offline` possible. The file implementation lives in `VitrineSources`.
package protocol PageCache: Sendable {
    /// The stored response for `request` if one is fresh enough, else `nil`.
    func response(for request: SourceRequest) -> SourceResponse?
    /// Stores a response that decoded well. Written atomically: a run killed mid-write leaves no torn entry.
    func store(_ response: SourceResponse, for request: SourceRequest)
    /// Forgets `request`'s entry (an expired OAI-PMH token chain, a stored page that no longer decodes).
    func remove(_ request: SourceRequest)
    /// Where the cache is, as a user would name it (`--cache`), for messages.
    var location: String { get }
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
