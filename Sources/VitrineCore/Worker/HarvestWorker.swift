import Logging

/// Walks a source's pages through a transport: the order of requests, how many at once, where to stop, and
/// what to do when a request fails.
///
/// - Page numbers: a window of `concurrency` requests slides over the pages. Where the source allows it, the
///   window opens before the first page tells how many there are (a page past the end comes back empty and is
///   dropped), so no round trip is spent waiting for the total.
/// - Chains (OAI-PMH tokens): one request after another by protocol, but the next request leaves as soon as a
///   response names it, while the page before is still being parsed.
/// - Id lists: the list's pages, then every object, `concurrency` at a time.
///
/// Requests are paced to the rate ceiling, transient failures retried by the `RetryPolicy`, and every response
/// that decodes is stored in the page cache. Pages are handed over as they arrive, each with its place in the
/// source's order, so the receiver rebuilds that order whatever the arrival order. Every error leaves here as
/// an `ExportError` naming source, page and URL.
package struct HarvestWorker: Sendable {
    package let source: any CollectionSource
    package let transport: any Transport
    package let options: HarvestOptions
    package let logger: Logger
    package let sleeper: any HarvestSleeper
    package let cache: (any PageCache)?
    package let cacheMode: CacheMode
    package let counters: HarvestCounters
    private let pacer: RequestPacer?

    package init(
        source: any CollectionSource,
        transport: any Transport,
        options: HarvestOptions,
        logger: Logger = Logger(label: "vitrine.harvest"),
        sleeper: any HarvestSleeper = TaskSleeper(),
        cache: (any PageCache)? = nil,
        cacheMode: CacheMode = .use,
        counters: HarvestCounters = HarvestCounters()
    ) {
        self.source = source
        self.transport = transport
        self.options = options
        self.logger = logger
        self.sleeper = sleeper
        self.cache = cache
        self.cacheMode = cacheMode
        self.counters = counters
        let rate = options.requestsPerSecond ?? source.descriptor.requestsPerSecond
        self.pacer = rate.flatMap { $0 > 0 ? RequestPacer(requestsPerSecond: $0) : nil }
    }

    private typealias Receive = (PageReference, SourcePage) throws -> Void

    /// Fetches every page and hands each to `receive` as it arrives.
    package func harvest(_ receive: (PageReference, SourcePage) throws -> Void) async throws {
        let pageLimit = options.maxPages ?? Int.max
        if case .number(let first) = source.firstPage {
            try await harvestNumbered(from: first, pageLimit: pageLimit, receive)
            return
        }
        let first = PageReference(index: 0, cursor: source.firstPage)
        let (firstPage, prefetched) = try await fetchAhead(first.cursor, prefetched: nil)
        try receive(first, firstPage)
        switch firstPage.continuation {
        case .end, .next(nil), .pageNumbers:
            return
        case .next(.some(let cursor)):
            try await harvestChain(from: cursor, prefetched: prefetched, pageLimit: pageLimit, receive)
        case .objects(let ids, let next, let pageSize):
            try await harvestObjects(ids, next: next, pageSize: pageSize, pageLimit: pageLimit, receive)
        }
    }

    // MARK: - Page numbers

    /// A sliding window over numbered pages. The last page is unknown until the first page arrives; until then
    /// the window holds at most `concurrency` pages, and pages past the end are dropped.
    private func harvestNumbered(from first: Int, pageLimit: Int, _ receive: Receive) async throws {
        let width = max(1, options.concurrency)
        let lastAllowed = first + min(pageLimit, Int.max - first) - 1
        // Speculating costs a request past the end: only worth it when no rate ceiling spaces requests anyway.
        let speculate = source.descriptor.speculativePaging && width > 1 && pacer == nil
        var last: Int?
        var pageSize = Int.max
        var probeLimit = lastAllowed
        var parked: [Int: Result<SourcePage, ExportError>] = [:]
        var sizes: [Int: Int] = [:]
        var following: Continuation?

        func deliver(_ number: Int, _ outcome: Result<SourcePage, ExportError>) throws {
            let page = try outcome.get()
            sizes[number] = page.records.count
            try receive(PageReference(index: number - first, cursor: .number(number)), page)
        }

        try await withThrowingTaskGroup(of: (Int, Result<SourcePage, ExportError>).self) { group in
            var next = first
            var inFlight = 0
            func launch() {
                let ceiling = last ?? (speculate ? min(lastAllowed, first + width - 1) : first)
                while inFlight < width && next <= ceiling {
                    let number = next
                    group.addTask {
                        do throws(ExportError) {
                            return (number, .success(try await fetch(.number(number))))
                        } catch {
                            return (number, .failure(error))
                        }
                    }
                    next += 1
                    inFlight += 1
                }
            }
            launch()
            while let (number, outcome) = try await group.next() {
                inFlight -= 1
                if number == first {
                    let page = try outcome.get()
                    following = page.continuation
                    if case .pageNumbers(let lastPage, let limit, let size) = page.continuation {
                        probeLimit = min(lastAllowed, limit)
                        last = min(lastPage, probeLimit)
                        pageSize = size
                    } else {
                        last = first
                    }
                    try deliver(number, outcome)
                    for (parkedNumber, parkedOutcome) in parked.sorted(by: { $0.key < $1.key })
                    where parkedNumber <= (last ?? first) {
                        try deliver(parkedNumber, parkedOutcome)
                    }
                    parked = parked.filter { $0.key > (last ?? first) }
                } else if let last {
                    if number <= last { try deliver(number, outcome) } else { parked[number] = outcome }
                } else {
                    parked[number] = outcome
                }
                launch()
            }
        }

        // Sources whose pages are not numbered all the way (a `next` link only) continue as a chain.
        switch following {
        case .next(.some(let cursor)):
            try await harvestChain(from: cursor, prefetched: nil, pageLimit: pageLimit, receive)
            return
        case .objects(let ids, let next, let pageSize):
            try await harvestObjects(ids, next: next, pageSize: pageSize, pageLimit: pageLimit, receive)
            return
        default:
            break
        }
        // The count promised no more, but the server may number pages from 1, or hold more than it counted:
        // go on while the last page came back full. Pages already fetched ahead are used, not fetched again.
        guard let last else { return }
        var number = last + 1
        var previousSize = sizes[last] ?? 0
        while previousSize >= pageSize && number <= probeLimit {
            let outcome: Result<SourcePage, ExportError>
            if let early = parked.removeValue(forKey: number) {
                outcome = early
            } else {
                do throws(ExportError) {
                    outcome = .success(try await fetch(.number(number)))
                } catch {
                    outcome = .failure(error)
                }
            }
            try deliver(number, outcome)
            previousSize = sizes[number] ?? 0
            number += 1
        }
    }

    // MARK: - Chains

    /// Token chains: strictly one after another, but the next request is sent while this page is parsed.
    private func harvestChain(
        from cursor: PageCursor, prefetched: Prefetch?, pageLimit: Int, _ receive: Receive
    ) async throws {
        var reference = PageReference(index: 1, cursor: cursor)
        var ahead = prefetched
        while reference.index < pageLimit {
            // A request started from a peek is used only if the decoded page names the same next page.
            let usable = ahead.flatMap { $0.cursor == reference.cursor ? $0 : nil }
            if usable == nil { ahead?.task.cancel() }
            let (page, following) = try await fetchAhead(reference.cursor, prefetched: usable)
            try receive(reference, page)
            guard case .next(.some(let next)) = page.continuation else {
                following?.task.cancel()
                return
            }
            ahead = following
            reference = PageReference(index: reference.index + 1, cursor: next)
        }
        ahead?.task.cancel()
    }

    // MARK: - Id lists

    private func harvestObjects(
        _ firstIDs: [String], next firstNext: PageCursor?, pageSize: Int, pageLimit: Int, _ receive: Receive
    ) async throws {
        // The id list's own pages come first, one after another; then every object, `concurrency` at once.
        var ids = firstIDs
        var next = firstNext
        var index = 1
        while let cursor = next, index < pageLimit {
            let page = try await fetch(cursor)
            try receive(PageReference(index: index, cursor: cursor), page)
            index += 1
            guard case .objects(let more, let following, _) = page.continuation else { break }
            ids += more
            next = following
        }
        var seen = Set<String>()
        var unique = ids.filter { seen.insert($0).inserted }
        if let maxPages = options.maxPages { unique = Array(unique.prefix(maxPages * max(1, pageSize))) }
        let references = unique.enumerated().map {
            PageReference(index: index + $0.offset, cursor: .object($0.element))
        }
        try await fetchConcurrently(references, receive)
    }

    /// Fetches pages with at most `options.concurrency` requests in flight, handing each over as it lands.
    private func fetchConcurrently(_ references: [PageReference], _ receive: Receive) async throws {
        let width = max(1, options.concurrency)
        try await withThrowingTaskGroup(of: (PageReference, SourcePage).self) { group in
            var pending = references.makeIterator()
            for _ in 0..<width {
                guard let reference = pending.next() else { break }
                group.addTask { (reference, try await fetch(reference.cursor)) }
            }
            while let (reference, page) = try await group.next() {
                try receive(reference, page)
                if let next = pending.next() {
                    group.addTask { (next, try await fetch(next.cursor)) }
                }
            }
        }
    }

    // MARK: - One page

    /// A response and whether it came from the cache.
    private struct FetchedResponse: Sendable {
        var request: SourceRequest
        var response: SourceResponse
        var fromCache: Bool
    }

    /// A request already on its way, for the page `cursor`.
    private struct Prefetch: Sendable {
        var cursor: PageCursor
        var task: Task<FetchedResponse, any Error>
    }

    /// Fetches and decodes one page; see `fetchAhead`.
    package func fetch(_ cursor: PageCursor) async throws(ExportError) -> SourcePage {
        try await fetchAhead(cursor, prefetched: nil).page
    }

    /// Fetches and decodes one page, within the rate ceiling, through the cache, retrying transient failures
    /// by the retry policy. When the response names the next page of a chain before it is decoded, the next
    /// request is started at once and returned, so it travels while this page is parsed.
    private func fetchAhead(
        _ cursor: PageCursor, prefetched: Prefetch?
    ) async throws(ExportError) -> (page: SourcePage, next: Prefetch?) {
        let name = source.descriptor.name
        let request: SourceRequest
        do {
            request = try source.request(for: cursor)
        } catch {
            throw ExportError(.harvest(error), source: name, page: cursor.description)
        }
        let policy = RetryPolicy(retries: options.retries, jitter: options.jitter)
        var early = prefetched?.task
        var retry = 0
        var skipCache = false
        while true {
            let failure: HarvestFailure
            var next: Prefetch?
            var fromCache = false
            do throws(HarvestFailure) {
                let fetched: FetchedResponse
                if let task = early {
                    early = nil
                    fetched = try await Self.value(of: task)
                } else {
                    fetched = try await response(for: request, readCache: !skipCache)
                }
                fromCache = fetched.fromCache
                if let peeked = source.peekNext(fetched.response) { next = startFetch(peeked) }
                if let failure = source.failure(for: fetched.response) { throw failure }
                let page = try source.decode(fetched.response, page: cursor)
                if !fetched.fromCache { cache?.store(fetched.response, for: request) }
                return (page, next)
            } catch {
                next?.task.cancel()
                if case .notCached = error {
                    counters.countMissing(cursor.description)
                    return (SourcePage(records: [], continuation: .end), nil)
                }
                failure = error
                // A stored response that no longer reads is forgotten and fetched again.
                if fromCache, cacheMode != .offline {
                    cache?.remove(request)
                    skipCache = true
                    continue
                }
            }
            retry += 1
            guard let delay = policy.delay(beforeRetry: retry, after: failure) else {
                let final = failure.isTransient && retry > 1 ? failure.givenUp(afterRetries: retry - 1) : failure
                throw ExportError(.harvest(final), source: name, page: cursor.description, url: request.redactedURL)
            }
            counters.countRetry()
            logger.notice(
                "retrying",
                metadata: [
                    "page": "\(cursor)", "retry": "\(retry)", "after": "\(delay)", "reason": "\(failure.message)",
                    "url": "\(request.redactedURL)",
                ]
            )
            do {
                try await sleeper.sleep(for: delay)
            } catch {
                throw ExportError(.harvest(failure), source: name, page: cursor.description, url: request.redactedURL)
            }
        }
    }

    /// Starts fetching the response for `cursor` (not decoding it) in a task of its own.
    private func startFetch(_ cursor: PageCursor) -> Prefetch? {
        guard let request = try? source.request(for: cursor) else { return nil }
        return Prefetch(cursor: cursor, task: Task { try await response(for: request, readCache: true) })
    }

    private static func value(of task: Task<FetchedResponse, any Error>) async throws(HarvestFailure)
        -> FetchedResponse
    {
        do {
            return try await task.value
        } catch let failure as HarvestFailure {
            throw failure
        } catch {
            throw .connection("cancelled")
        }
    }

    /// The response for a request: from the cache when allowed and fresh, else from the network.
    private func response(for request: SourceRequest, readCache: Bool) async throws(HarvestFailure)
        -> FetchedResponse
    {
        if readCache, cacheMode != .refresh, let cached = cache?.response(for: request) {
            counters.countCacheHit()
            return FetchedResponse(request: request, response: cached, fromCache: true)
        }
        if cacheMode == .offline { throw .notCached(request.redactedURL) }
        try await pace()
        let response = try await transport.fetch(request)
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
