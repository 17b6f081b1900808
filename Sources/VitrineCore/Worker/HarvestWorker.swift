import Foundation
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
    private let slots: PrefetchSlots

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
        self.slots = PrefetchSlots(limit: max(1, options.concurrency))
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
        let (firstPage, prefetched) = try await fetchAhead(first.cursor)
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
        // Speculating costs a request past the end: only worth it when no rate ceiling spaces requests anyway.
        var window = NumberedWindow(
            first: first, width: width, lastAllowed: first + min(pageLimit, Int.max - first) - 1,
            speculate: source.descriptor.speculativePaging && width > 1 && pacer == nil)

        try await withThrowingTaskGroup(of: (Int, Result<SourcePage, ExportError>).self) { group in
            while let number = window.nextToLaunch() {
                group.addTask { (number, await fetchResult(.number(number))) }
            }
            while let (number, outcome) = try await group.next() {
                for (ready, readyOutcome) in try window.accept(number, outcome) {
                    let page = try readyOutcome.get()
                    if ready == window.last { window.lastPageSize = page.records.count }
                    try receive(PageReference(index: ready - first, cursor: .number(ready)), page)
                }
                while let number = window.nextToLaunch() {
                    group.addTask { (number, await fetchResult(.number(number))) }
                }
            }
        }
        let following = window.following
        let last = window.last
        let pageSize = window.pageSize
        let probeLimit = window.probeLimit
        var parked = window.parked

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
        var previousSize = window.lastPageSize ?? 0
        while previousSize >= pageSize && number <= probeLimit {
            let outcome: Result<SourcePage, ExportError>
            if let early = parked.removeValue(forKey: number) {
                outcome = early
            } else {
                outcome = await fetchResult(.number(number))
            }
            let page = try outcome.get()
            try receive(PageReference(index: number - first, cursor: .number(number)), page)
            previousSize = page.records.count
            number += 1
        }
    }

    /// A page fetched and decoded, or why not, without throwing (for task groups that sort pages first).
    private func fetchResult(_ cursor: PageCursor) async -> Result<SourcePage, ExportError> {
        do throws(ExportError) {
            return .success(try await fetch(cursor))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Chains

    /// Token chains: one request after another by protocol. But a response that names the next page before
    /// it is parsed (`peekNext`) starts the next request at once, and that page is parsed in its own task as
    /// soon as it lands: up to `concurrency` pages are in flight or being parsed, on every core, while pages
    /// are still handed over in order.
    private func harvestChain(
        from cursor: PageCursor, prefetched: Prefetch?, pageLimit: Int, _ receive: Receive
    ) async throws {
        var reference = PageReference(index: 1, cursor: cursor)
        var ahead = prefetched
        while reference.index < pageLimit {
            let page: SourcePage
            let following: Prefetch?
            // Work started from a peek is used only if the decoded page names the same next page.
            if let early = ahead, early.cursor == reference.cursor {
                (page, following) = try await early.value()
            } else {
                ahead?.cancel()
                (page, following) = try await fetchAhead(reference.cursor)
            }
            try receive(reference, page)
            guard case .next(.some(let next)) = page.continuation else {
                following?.cancel()
                return
            }
            ahead = following
            reference = PageReference(index: reference.index + 1, cursor: next)
        }
        ahead?.cancel()
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

    /// A page of a chain already being fetched and parsed, started from a peek. Holds one of the worker's
    /// `concurrency` slots until its page is taken or it is cancelled.
    private final class Prefetch: Sendable {
        let cursor: PageCursor
        private let task: Task<(SourcePage, Prefetch?), any Error>
        private let slots: PrefetchSlots

        init(
            cursor: PageCursor, slots: PrefetchSlots,
            work: @escaping @Sendable () async throws -> (SourcePage, Prefetch?)
        ) {
            self.cursor = cursor
            self.slots = slots
            self.task = Task(operation: work)
        }

        func value() async throws(ExportError) -> (SourcePage, Prefetch?) {
            defer { slots.release() }
            do {
                return try await task.value
            } catch let error as ExportError {
                throw error
            } catch {
                throw ExportError(.harvest(.connection("cancelled")), page: cursor.description)
            }
        }

        func cancel() {
            task.cancel()
            slots.release()
        }
    }

    /// Fetches and decodes one page; see `fetchAhead`.
    package func fetch(_ cursor: PageCursor) async throws(ExportError) -> SourcePage {
        try await fetchAhead(cursor).page
    }

    /// Fetches and decodes one page, within the rate ceiling, through the cache, retrying transient failures
    /// by the retry policy. When the response names the next page of a chain before it is decoded, the next
    /// request is started at once and returned, so it travels while this page is parsed.
    private func fetchAhead(_ cursor: PageCursor) async throws(ExportError) -> (page: SourcePage, next: Prefetch?) {
        let name = source.descriptor.name
        let request: SourceRequest
        do {
            request = try source.request(for: cursor)
        } catch {
            throw ExportError(.harvest(error), source: name, page: cursor.description)
        }
        let policy = RetryPolicy(retries: options.retries, jitter: options.jitter)
        var retry = 0
        var skipCache = false
        while true {
            let failure: HarvestFailure
            var next: Prefetch?
            var fromCache = false
            do throws(HarvestFailure) {
                let fetched = try await response(for: request, readCache: !skipCache)
                fromCache = fetched.fromCache
                if let peeked = source.peekNext(fetched.response), slots.acquire() {
                    next = Prefetch(cursor: peeked, slots: slots) { try await fetchAhead(peeked) }
                    // Let the next request leave before this page is parsed: the new task runs up to its first
                    // suspension (the request handed to the network) instead of queueing behind parsing.
                    await Task.yield()
                }
                if let failure = source.failure(for: fetched.response) { throw failure }
                let page = try await source.decode(fetched.response, page: cursor)
                if !fetched.fromCache { cache?.store(fetched.response, for: request) }
                return (page, next)
            } catch {
                next?.cancel()
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
                var final = failure.isTransient && retry > 1 ? failure.givenUp(afterRetries: retry - 1) : failure
                if let asked = failure.retryAfter, asked > policy.maximumRetryAfter {
                    final = final.annotated(
                        " (the server asks to wait \(Int(asked)) s: run the export again after that)")
                }
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

/// How many chain pages may be fetched or parsed ahead of the one being handed over.
private final class PrefetchSlots: Sendable {
    private let limit: Int
    private let used = Locked(0)

    init(limit: Int) {
        self.limit = limit
    }

    func acquire() -> Bool {
        used.withLock { used in
            guard used < limit else { return false }
            used += 1
            return true
        }
    }

    func release() {
        used.withLock { $0 = max(0, $0 - 1) }
    }
}

/// The state of a numbered-page window: what is in flight, what came early, where the end is.
private struct NumberedWindow {
    let first: Int
    let width: Int
    let lastAllowed: Int
    let speculate: Bool
    var next: Int
    var inFlight = 0
    /// The last page to fetch, known once the first page is read.
    var last: Int?
    var pageSize = Int.max
    var probeLimit: Int
    /// Pages that arrived before the first one said where the end is, or past the end.
    var parked: [Int: Result<SourcePage, ExportError>] = [:]
    /// How many records the last page held: a full one means the server may hold more.
    var lastPageSize: Int?
    var following: Continuation?

    init(first: Int, width: Int, lastAllowed: Int, speculate: Bool) {
        self.first = first
        self.width = width
        self.lastAllowed = lastAllowed
        self.speculate = speculate
        self.next = first
        self.probeLimit = lastAllowed
    }

    /// The next page number to request now, if the window has room.
    mutating func nextToLaunch() -> Int? {
        let ceiling = last ?? (speculate ? min(lastAllowed, first + width - 1) : first)
        guard inFlight < width, next <= ceiling else { return nil }
        defer {
            next += 1
            inFlight += 1
        }
        return next
    }

    /// Takes a page that arrived; returns the pages that can be handed over now, in number order.
    mutating func accept(_ number: Int, _ outcome: Result<SourcePage, ExportError>) throws
        -> [(Int, Result<SourcePage, ExportError>)]
    {
        inFlight -= 1
        guard number == first else {
            guard let last, number <= last else {
                parked[number] = outcome
                return []
            }
            return [(number, outcome)]
        }
        let page = try outcome.get()
        following = page.continuation
        if case .pageNumbers(let lastPage, let limit, let size) = page.continuation {
            probeLimit = min(lastAllowed, limit)
            last = min(lastPage, probeLimit)
            pageSize = size
        } else {
            last = first
        }
        let end = last ?? first
        let early = parked.filter { $0.key <= end }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        parked = parked.filter { $0.key > end }
        return [(number, outcome)] + early
    }
}
