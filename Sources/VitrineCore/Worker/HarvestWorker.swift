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
///
/// The strategies live in files of their own: `HarvestWorker+PageNumbers`, `+Chain`, `+IDList`; one request
/// (cache, pacing, retries) in `HarvestWorker+Fetch`.
package struct HarvestWorker: Sendable {
    package let source: any CollectionSource
    package let transport: any Transport
    package let options: HarvestOptions
    package let logger: Logger
    package let sleeper: any HarvestSleeper
    /// The pages of the harvest this run walks, kept to resume it; `nil`: none kept.
    package let cache: (any HarvestPages)?
    /// Whether pages the harvest stored are read back (a resumed run); `false` after a token expired.
    package let readsCache: Bool
    /// Whether the listing is an incremental run's changes: a repository that refuses or ignores its `from` then
    /// fails it with `ChangesRefused`, for a full run to take over.
    package let listsChanges: Bool
    package let counters: HarvestCounters
    /// Told of every pause before a retry, while it lasts.
    package let onWait: @Sendable (HarvestWait) -> Void
    /// How a long OAI-PMH chain may be cut into date windows; `nil`: never (and for a window's own walker).
    package let windowing: Windowing?
    let pacer: RequestPacer?
    let slots: PrefetchSlots

    package init(
        source: any CollectionSource,
        transport: any Transport,
        options: HarvestOptions,
        logger: Logger = Logger(label: "vitrine.harvest"),
        sleeper: any HarvestSleeper = TaskSleeper(),
        cache: (any HarvestPages)? = nil,
        readsCache: Bool = true,
        listsChanges: Bool = false,
        counters: HarvestCounters = HarvestCounters(),
        onWait: @escaping @Sendable (HarvestWait) -> Void = { _ in },
        windowing: Windowing? = nil
    ) {
        self.source = source
        self.transport = transport
        self.options = options
        self.logger = logger
        self.sleeper = sleeper
        self.cache = cache
        self.readsCache = readsCache
        self.listsChanges = listsChanges
        self.counters = counters
        self.onWait = onWait
        self.windowing = windowing
        let rate = options.requestsPerSecond ?? source.descriptor.requestsPerSecond
        self.pacer = rate.flatMap { $0 > 0 ? RequestPacer(requestsPerSecond: $0) : nil }
        self.slots = PrefetchSlots(limit: max(1, options.concurrency))
    }

    /// A worker like `other` walking `source`: the same pacer, prefetch slots and counters, so windows walked in
    /// parallel share one rate ceiling and one `--concurrency`.
    init(sharing other: HarvestWorker, source: any CollectionSource, readsCache: Bool) {
        self.source = source
        self.transport = other.transport
        self.options = other.options
        self.logger = other.logger
        self.sleeper = other.sleeper
        self.cache = other.cache
        self.readsCache = readsCache
        self.listsChanges = false
        self.counters = other.counters
        self.onWait = other.onWait
        self.windowing = nil
        self.pacer = other.pacer
        self.slots = other.slots
    }

    /// Pages as a strategy hands them over, in any order, each with its place in the source's order.
    typealias Receive = (PageReference, SourcePage) throws -> Void

    /// Fetches every page and hands each to `receive` as it arrives.
    package func harvest(_ receive: (HarvestEvent) throws -> Void) async throws {
        let hits = counters.cacheHits
        let firstPass = try await harvestOnce(receive)
        switch firstPass {
        case .finished:
            return
        case .tokenExpired(let reason, _, _):
            // A chain resumed from the cache may hold tokens the server has since forgotten, or that point into a
            // list since changed, and a server restarted or timed out forgets the tokens it just gave: the list is
            // fetched again from its first page, once.
            let why =
                reason == Self.storedListChanged
                ? reason : "the repository refused a resumption token (expired, or its list cut short)"
            logger.notice("\(why); harvesting again from the start")
            // The pages read so far, from the cache too, do not count: the list is read again.
            counters.takeBackCacheHits(counters.cacheHits - hits)
            try receive(.restart(notice: why + ": the harvest started over from the first page"))
            let refetching = HarvestWorker(
                source: source, transport: transport, options: options, logger: logger, sleeper: sleeper, cache: cache,
                readsCache: false, listsChanges: listsChanges, counters: counters, onWait: onWait,
                windowing: windowing)
            let secondPass = try await refetching.harvestOnce(receive)
            if secondPass.confirms(firstPass) {
                try receive(.notice(ChainEnd.confirmedNotice))
            } else if case .tokenExpired(let message, let page, _) = secondPass {
                throw expired(message, page: page)
            }
        }
    }

    /// The failure of a chain whose token the server no longer knows, naming the page and its URL.
    private func expired(_ message: String, page: PageCursor) -> ExportError {
        ExportError(
            .harvest(.api(message)), source: source.descriptor.name, page: page.description,
            url: try? source.request(for: page).redactedURL)
    }

    /// One pass over the source, by the strategy its first page calls for. A long OAI-PMH list, when windowing
    /// is allowed, is harvested in date windows instead (its first page measured the list).
    func harvestOnce(_ events: (HarvestEvent) throws -> Void) async throws -> ChainEnd {
        func receive(_ reference: PageReference, _ page: SourcePage) throws { try events(.page(reference, page)) }
        let pageLimit = options.maxPages ?? Int.max
        if case .number(let first) = source.firstPage {
            return try await harvestNumbered(from: first, pageLimit: pageLimit, receive)
        }
        let first = PageReference(index: 0, cursor: source.firstPage)
        // A list that may be cut into windows fetches nothing ahead until its first page says how long it is.
        let firstPage: SourcePage
        let prefetched: Prefetch?
        do {
            (firstPage, prefetched) = try await fetchAhead(
                first.cursor, prefetching: windowing == nil || !(source is any WindowedSource))
        } catch {
            if listsChanges, case .harvest(.datesRefused) = error.reason {
                throw ChangesRefused(reason: "the repository refused the request for changes (\(error))")
            }
            throw error
        }
        if let windowed = source as? any WindowedSource,
            let asked = DateWindow(
                from: windowed.from, until: windowed.until,
                daysOnly: (windowed.from ?? windowed.until)?.utf8.count == 10),
            asked.from != nil || asked.until != nil, Self.listsOutside(firstPage, asked)
        {
            await prefetched?.cancel()
            guard !listsChanges else {
                throw ChangesRefused(
                    reason: "the repository ignores from: asked for the changes since \(windowed.from ?? ""), it "
                        + "listed records changed before")
            }
            try events(
                .notice(
                    "the repository ignores --from/--until: its first page lists records dated outside them, and "
                        + "the catalog holds what it lists"))
            return try await harvestSingleChain(first: first, firstPage: firstPage, pageLimit: pageLimit, receive)
        }
        if let windowing, options.maxPages == nil, let windowed = source as? any WindowedSource,
            windowing.worthWindows(firstPage)
        {
            await prefetched?.cancel()
            if try await harvestWindows(windowed, windowing, first: firstPage, events) { return .finished }
            // Not cut after all (the span is one granule, Identify unreadable): one chain, as always.
            return try await harvestSingleChain(first: first, firstPage: firstPage, pageLimit: pageLimit, receive)
        }
        do {
            try receive(first, firstPage)
        } catch {
            await prefetched?.cancel()
            throw error
        }
        switch firstPage.continuation {
        case .end, .next(nil), .pageNumbers:
            await prefetched?.cancel()
            return .finished
        case .expiredToken(let message):
            await prefetched?.cancel()
            return .tokenExpired(message, page: first.cursor)
        case .next(.some(let cursor)):
            return try await harvestChain(
                from: cursor, after: firstPage, prefetched: prefetched, pageLimit: pageLimit, receive)
        case .objects(let ids, let next, let pageSize):
            try await harvestObjects(ids, next: next, pageSize: pageSize, pageLimit: pageLimit, receive)
            return .finished
        }
    }
}

extension HarvestWorker {
    /// A chain walked from its first page, already fetched, as one chain (the next page fetched again).
    func harvestSingleChain(
        first: PageReference, firstPage: SourcePage, pageLimit: Int, _ receive: Receive
    ) async throws -> ChainEnd {
        try receive(first, firstPage)
        guard case .next(.some(let cursor)) = firstPage.continuation else { return .finished }
        return try await harvestChain(from: cursor, after: firstPage, prefetched: nil, pageLimit: pageLimit, receive)
    }
}

/// What the worker hands over as a harvest goes.
package enum HarvestEvent: Sendable {
    /// A page, with its place in the source's order.
    case page(PageReference, SourcePage)
    /// Everything handed over so far is void: the harvest starts again from the first page (a chain resumed
    /// from the cache whose token the server no longer knows). `notice` says so, for the summary.
    case restart(notice: String)
    /// A date window starts over (the server forgot its token): what its pages at these places counted is void,
    /// though its records stand (they are listed again, as late or later).
    case windowStartedOver(pages: Range<Int>)
    /// How many records the whole listing holds, measured before its pages arrive (a windowed harvest).
    case measured(total: Int)
    /// The span a windowed harvest lists, by the server's clock: where the next incremental run starts.
    case span(ChangeWindow)
    /// Where a windowed harvest's windows start (`HarvestWorker.place`): its span's first granule, in seconds.
    case windowsStart(Int, daysOnly: Bool)
    /// Something the user should know about how the harvest went (windows, or why there were none).
    case notice(String)
}

/// An incremental run's listing that the repository refused (`badArgument` to its `from`) or ignored (its first
/// page lists records changed before `from`): the Interactor harvests everything instead.
package struct ChangesRefused: Error {
    package var reason: String
}

/// How a pass over a source ended: every page read, or a chain stopped by a token the server no longer knows.
/// `listed` is set when the server answered that token with no records and counted none to check it against (no
/// `completeListSize`): the records the chain had listed. Two passes that end so after as many records end the list.
enum ChainEnd {
    case finished
    case tokenExpired(String, page: PageCursor, listed: Int? = nil)

    /// Whether this end, after `before`, is the same unconfirmed end of the list: the repository says so twice.
    func confirms(_ before: ChainEnd) -> Bool {
        guard case .tokenExpired(_, _, let listed?) = self, case .tokenExpired(_, _, let earlier?) = before else {
            return false
        }
        return listed == earlier
    }

    static let confirmedNotice =
        "the repository answered a resumption token with noRecordsMatch and counts no completeListSize: the list, "
        + "read twice to the same end, is taken to end there"
}
