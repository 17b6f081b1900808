import Foundation
import Logging

/// One page: through the cache, within the rate ceiling, retried by the retry policy.
extension HarvestWorker {
    /// A response and whether it came from the cache.
    private struct FetchedResponse: Sendable {
        var request: SourceRequest
        var response: SourceResponse
        var fromCache: Bool
    }

    /// Fetches and decodes one page, nothing ahead; see `fetchAhead`.
    package func fetch(_ cursor: PageCursor, readingCache: Bool = true) async throws(ExportError) -> SourcePage {
        try await fetchAhead(cursor, prefetching: false, readingCache: readingCache).page
    }

    /// Fetches and decodes one page, within the rate ceiling, through the cache, retrying transient failures
    /// by the retry policy. When the response names the next page of a chain before it is decoded, the next
    /// request is started at once and returned, so it travels while this page is parsed.
    /// - parameter prefetching: whether to start the next page early (not for a page that may be dropped, such
    ///   as the first page of a date window that may be cut).
    /// - parameter readingCache: `false` to ask the server even when the page is stored.
    func fetchAhead(
        _ cursor: PageCursor, prefetching: Bool = true, readingCache: Bool = true
    ) async throws(ExportError) -> (page: SourcePage, next: Prefetch?) {
        let (page, next, fromCache) = try await fetchOnce(cursor, prefetching: prefetching, readingCache: readingCache)
        // A prefetch from a stored page was started only because its next page is stored too.
        if fromCache, case .next(.some(let following)) = page.continuation, next?.cursor != following,
            !isStored(following)
        {
            await next?.cancel()
            return try await resuming(after: page, cursor: cursor)
        }
        return (page, next)
    }

    /// `fetchAhead` without the check of a resumed chain's last stored page.
    private func fetchOnce(
        _ cursor: PageCursor, prefetching: Bool, readingCache: Bool
    ) async throws(ExportError) -> (page: SourcePage, next: Prefetch?, fromCache: Bool) {
        let name = source.descriptor.name
        let request: SourceRequest
        do {
            request = try source.request(for: cursor)
        } catch {
            throw ExportError(.harvest(error), source: name, page: cursor.description)
        }
        let policy = RetryPolicy(retries: options.retries, jitter: options.jitter)
        let key = cacheKey(request, cursor: cursor)
        var retry = 0
        var skipCache = !readsCache || !readingCache
        while true {
            let failure: HarvestFailure
            var next: Prefetch?
            var fromCache = false
            do throws(HarvestFailure) {
                let fetched = try await response(for: request, key: key, readCache: !skipCache)
                fromCache = fetched.fromCache
                if prefetching, !Task.isCancelled, let peeked = source.peekNext(fetched.response),
                    !fetched.fromCache || isStored(peeked), slots.acquire()
                {
                    next = Prefetch(cursor: peeked, slots: slots) { try await fetchAhead(peeked) }
                    // Let the next request leave before this page is parsed: the new task runs up to its first
                    // suspension (the request handed to the network) instead of queueing behind parsing.
                    await Task.yield()
                }
                if let failure = source.failure(for: fetched.response) { throw failure }
                let page = try await source.decode(fetched.response, page: cursor)
                // A page fetched ahead and then given up (its chain stopped) is not stored once the harvest is over;
                // nor is a refused token, which a run resumed from the cache would read as refused again.
                if !fetched.fromCache, !Task.isCancelled, !page.continuation.isExpiredToken {
                    cache?.store(fetched.response, for: key)
                }
                return (page, next, fetched.fromCache)
            } catch {
                await next?.cancel()
                failure = error
                // A stored response that no longer reads is forgotten and fetched again.
                if fromCache {
                    cache?.remove(key)
                    skipCache = true
                    continue
                }
            }
            retry += 1
            try await pause(
                beforeRetry: retry, after: failure, policy: policy, page: cursor.description, request: request)
        }
    }

    /// The last stored page of a chain resumed from the page cache, fetched again and checked against the stored
    /// one: a server whose tokens hold a position in its list (an offset into a list ordered by datestamp) would,
    /// after the list changed, go on from the wrong place and skip the records that moved across it. A page that
    /// lists other records than it did ends the chain as a refused token does: the list starts over, fetched anew.
    /// A list's first page was asked for with no token: its fresh copy, and its fresh token, simply take its place.
    func resuming(
        after stored: SourcePage, cursor: PageCursor
    ) async throws(ExportError) -> (page: SourcePage, next: Prefetch?) {
        let fresh = try await fetch(cursor, readingCache: false)
        // The stored page was read, but the fresh one is what the chain takes.
        counters.takeBackCacheHits(1)
        // In any order: a server may list one page's records in another order each time.
        guard cursor != .token(nil), !fresh.continuation.isExpiredToken,
            Self.sorted(fresh.recordIDs) != Self.sorted(stored.recordIDs)
        else { return (fresh, nil) }
        // Not kept: a run cut off again before the list starts over must find this page stale too.
        if let request = try? source.request(for: cursor) { cache?.remove(cacheKey(request, cursor: cursor)) }
        return (SourcePage(records: [], continuation: .expiredToken(Self.storedListChanged)), nil)
    }

    private static func sorted(_ ids: [String?]) -> [String] {
        ids.map { $0 ?? "" }.sorted()
    }

    /// Why a resumed chain started over when its last stored page no longer lists what it did.
    static let storedListChanged = "the list changed since the pages of this harvest were stored"

    /// Whether the page at `cursor` is in the harvest's page cache (a chain resumed from it goes on there).
    func isStored(_ cursor: PageCursor) -> Bool {
        guard let cache, let request = try? source.request(for: cursor) else { return false }
        return cache.contains(cacheKey(request, cursor: cursor))
    }

    /// Removes a page from the harvest's page cache.
    func forgetStored(_ cursor: PageCursor) {
        guard let request = try? source.request(for: cursor) else { return }
        cache?.remove(cacheKey(request, cursor: cursor))
    }

    /// The server's clock and granularity (OAI-PMH `Identify`, The Met's `Date`), asked for anew, never cached.
    package func serverClock(of clocked: any IncrementalSource) async throws(ExportError) -> ServerClock {
        let request: SourceRequest
        do {
            request = try clocked.clockRequest()
        } catch {
            throw ExportError(.harvest(error), source: source.descriptor.name, page: "Identify")
        }
        return try await fetchUncached(request, page: "Identify") { response throws(HarvestFailure) in
            try clocked.clock(from: response)
        }
    }

    /// Sends one request that is never cached (OAI-PMH `Identify`), within the rate ceiling, retrying
    /// transient failures, and reads its answer with `read`.
    package func fetchUncached<Value>(
        _ request: SourceRequest, page: String, read: (SourceResponse) throws(HarvestFailure) -> Value
    ) async throws(ExportError) -> Value {
        let policy = RetryPolicy(retries: options.retries, jitter: options.jitter)
        var retry = 0
        while true {
            let failure: HarvestFailure
            do throws(HarvestFailure) {
                try await pace()
                let response = try await transport.fetch(request).withoutSecrets(of: request)
                counters.countRequest()
                return try read(response)
            } catch {
                failure = error
            }
            retry += 1
            try await pause(beforeRetry: retry, after: failure, policy: policy, page: page, request: request)
        }
    }

    /// Waits before retry number `retry` of a request that failed, telling the user; throws the failure, naming
    /// page and URL, when the policy allows no more retries.
    private func pause(
        beforeRetry retry: Int, after failure: HarvestFailure, policy: RetryPolicy, page: String,
        request: SourceRequest
    ) async throws(ExportError) {
        let name = source.descriptor.name
        // A request of a task that was cancelled (a prefetch whose page is no longer wanted) is not retried.
        if Task.isCancelled {
            throw ExportError(.harvest(failure), source: name, page: page, url: request.redactedURL)
        }
        guard let delay = policy.delay(beforeRetry: retry, after: failure) else {
            var final = failure.isTransient && retry > 1 ? failure.givenUp(afterRetries: retry - 1) : failure
            if let asked = failure.retryAfter, asked > policy.maximumRetryAfter {
                final = final.annotated(" (the server asks to wait \(Int(asked)) s: run the export again after that)")
            }
            throw ExportError(.harvest(final), source: name, page: page, url: request.redactedURL)
        }
        counters.countRetry()
        logger.notice(
            "retrying",
            metadata: [
                "page": "\(page)", "retry": "\(retry)", "after": "\(delay)", "reason": "\(failure.message)",
                "url": "\(request.redactedURL)",
            ]
        )
        onWait(
            HarvestWait(
                source: name, page: page, reason: failure.message,
                seconds: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18,
                retry: retry, retries: options.retries))
        do {
            try await sleeper.sleep(for: delay)
        } catch {
            throw ExportError(.harvest(failure), source: name, page: page, url: request.redactedURL)
        }
    }

    /// A page's key in the harvest's page cache: its request without secrets, after the chain's first request for a
    /// resumption token (a server's tokens may repeat from one date window's chain to another's).
    private func cacheKey(_ request: SourceRequest, cursor: PageCursor) -> String {
        guard case .token(.some) = cursor, let chain = try? source.request(for: .token(nil)) else {
            return request.redactedURL
        }
        return chain.redactedURL + "\n" + request.redactedURL
    }

    /// The response for a request: from the harvest's page cache when allowed and there, else from the network.
    private func response(for request: SourceRequest, key: String, readCache: Bool) async throws(HarvestFailure)
        -> FetchedResponse
    {
        if readCache, let cached = cache?.response(for: key) {
            counters.countCacheHit()
            return FetchedResponse(request: request, response: cached, fromCache: true)
        }
        try await pace()
        let response = try await transport.fetch(request).withoutSecrets(of: request)
        counters.countRequest()
        logger.debug(
            "fetched", metadata: ["status": "\(response.status)", "url": "\(request.redactedURL)"])
        return FetchedResponse(request: request, response: response, fromCache: false)
    }

    /// Waits for the next request slot under the rate ceiling, if there is one.
    private func pace() async throws(HarvestFailure) {
        guard let pacer else { return }
        let wait = await pacer.reserve()
        guard wait > .zero else { return }
        do {
            try await sleeper.sleep(for: wait)
        } catch {
            throw .connection("cancelled")
        }
    }
}
