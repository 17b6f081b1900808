/// Page numbers: a window of `concurrency` requests slides over the pages, handing pages over in number order.
extension HarvestWorker {
    /// A sliding window over numbered pages. The last page is unknown until the first page arrives; until then
    /// the window holds at most `concurrency` pages, and pages past the end are dropped.
    func harvestNumbered(from first: Int, pageLimit: Int, _ receive: Receive) async throws -> ChainEnd {
        let lastAllowed = first + min(pageLimit, Int.max - first) - 1
        // A list resumed from the page cache reads its stored pages from `first` on, in a row, once the last of
        // them is checked; every other page is asked of the server (one stored after a gap was never checked).
        let storedThrough: Int
        if readsCache, isStored(.number(first)) {
            guard let last = try await checkStoredPages(from: first, through: lastAllowed) else {
                return .tokenExpired(Self.storedListChanged, page: .number(first))
            }
            storedThrough = last
        } else {
            storedThrough = first - 1
        }
        let fetchResult = { @Sendable (number: Int) in
            await self.fetchResult(.number(number), readingCache: number <= storedThrough)
        }
        let width = max(1, options.concurrency)
        // Speculating costs a request past the end: only worth it when no rate ceiling spaces requests anyway.
        var window = NumberedWindow(
            first: first, width: width, lastAllowed: lastAllowed,
            speculate: source.descriptor.speculativePaging && width > 1 && pacer == nil)

        var (emptyInARow, listed, counted) = (0, 0, Int?.none)
        // Every page's records as a set: a page past the end that lists a page's records again ends the list.
        var seenPages: Set<Fingerprint> = []
        var firstPage: SourcePage?
        try await withThrowingTaskGroup(of: (Int, Result<SourcePage, ExportError>).self) { group in
            while let number = window.nextToLaunch() {
                group.addTask { (number, await fetchResult(number)) }
            }
            while let (number, outcome) = try await group.next() {
                for (ready, readyOutcome) in try window.accept(number, outcome) {
                    // A page after an end found below in this batch is not taken, however it arrived.
                    if let last = window.last, ready > last { continue }
                    let page = try readyOutcome.get()
                    if ready == first {
                        counted = page.reportedTotal
                        firstPage = page
                    }
                    if let keySet = page.keySet { seenPages.insert(keySet) }
                    // What the server listed counts, not what the source kept (Unsplash's advertisements).
                    let size = page.listed ?? page.records.count
                    listed += size
                    emptyInARow = size == 0 && ready > first ? emptyInARow + 1 : 0
                    // Pages past the end come back empty when the count is far too high: two empty pages in a row
                    // end the list once it listed as many records as it counted (or it counted none); empty
                    // pages while it listed fewer are a server's gap, passed over up to a limit.
                    let enough = counted.map { listed >= $0 } ?? true
                    if emptyInARow >= (enough ? 2 : Self.emptyNumberedPagesAllowed), let last = window.last,
                        ready < last
                    {
                        window.last = ready
                    }
                    if ready == window.last { window.lastPageSize = size }
                    // The checked page was read twice: its check's read is no cache hit of the harvest.
                    if ready == storedThrough { counters.takeBackCacheHits(1) }
                    try receive(PageReference(index: ready - first, cursor: .number(ready)), page)
                }
                while let number = window.nextToLaunch() {
                    group.addTask { (number, await fetchResult(number)) }
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
            return try await harvestChain(
                from: cursor, after: firstPage, prefetched: nil, pageLimit: pageLimit, receive)
        case .objects(let ids, let next, let pageSize):
            try await harvestObjects(ids, next: next, pageSize: pageSize, pageLimit: pageLimit, receive)
            return .finished
        case .expiredToken(let message):
            // A stored first page whose next is not stored, found changed when asked again: the list starts over.
            return .tokenExpired(message, page: .number(first))
        default:
            break
        }
        // The count promised no more, but the server may number pages from 1, or hold more than it counted:
        // go on while the last page came back full. Pages already fetched ahead are used, not fetched again.
        guard let last else { return .finished }
        var number = last + 1
        var previousSize = window.lastPageSize ?? 0
        while previousSize >= pageSize && number <= probeLimit {
            let outcome: Result<SourcePage, ExportError>
            if let early = parked.removeValue(forKey: number) {
                outcome = early
            } else {
                outcome = await fetchResult(number)
            }
            let page = try outcome.get()
            // A server that answers past its end with a page again (its last, in any order) would be asked for ever.
            if let keySet = page.keySet, !seenPages.insert(keySet).inserted { break }
            try receive(PageReference(index: number - first, cursor: .number(number)), page)
            previousSize = page.listed ?? page.records.count
            number += 1
        }
        return .finished
    }

    /// Empty pages in a row that a numbered list passes over while it has listed fewer records than it counted.
    static let emptyNumberedPagesAllowed = 10

    /// The last of a resumed list's stored pages (from `first` on, in a row, up to `limit`), once it is asked
    /// again and lists the records it did; `nil` when it lists others (an update moved a record to the front of a
    /// list ordered by last change, a deletion shifted the pages): the list starts over, and its stored pages are
    /// forgotten (a pass cut off again would leave older ones after its own, under the same page numbers).
    private func checkStoredPages(from first: Int, through limit: Int) async throws(ExportError) -> Int? {
        var last = first
        while last < limit, isStored(.number(last + 1)) { last += 1 }
        let stored = try await fetch(.number(last))
        // A page whose next is a link (`fetchAhead`) was checked as it was read: found changed, it is this answer.
        if stored.continuation.isExpiredToken {
            for number in first...last { forgetStored(.number(number)) }
            return nil
        }
        // A page of ids (a Met search) holds no records to compare: taken as it is.
        guard !stored.records.isEmpty else { return last }
        let (checked, _) = try await resuming(after: stored, cursor: .number(last))
        guard checked.continuation.isExpiredToken else { return last }
        for number in first...last { forgetStored(.number(number)) }
        return nil
    }

    /// A page fetched and decoded, or why not, without throwing (for task groups that sort pages first).
    func fetchResult(_ cursor: PageCursor, readingCache: Bool = true) async -> Result<SourcePage, ExportError> {
        do throws(ExportError) {
            return .success(try await fetch(cursor, readingCache: readingCache))
        } catch {
            return .failure(error)
        }
    }
}

/// The state of a numbered-page window: what is in flight, what came early, where the end is.
struct NumberedWindow {
    let first: Int
    let width: Int
    let lastAllowed: Int
    let speculate: Bool
    var next: Int
    /// The next page to hand over: pages go on in number order, whatever order they arrive in.
    var handed: Int
    var inFlight = 0
    /// The last page to fetch, known once the first page is read.
    var last: Int?
    var pageSize = Int.max
    var probeLimit: Int
    /// Pages that arrived before the pages before them, or past the end.
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
        self.handed = first
        self.probeLimit = lastAllowed
    }

    /// The next page number to request now, if the window has room.
    mutating func nextToLaunch() -> Int? {
        let ceiling = last ?? (speculate ? min(lastAllowed, first + width - 1) : first)
        // Pages wait for the ones before them: a page slow to come (retried) holds the window at four widths.
        guard inFlight < width, next <= ceiling, next < handed + 4 * width else { return nil }
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
        if number == first {
            let page = try outcome.get()
            following = page.continuation
            if case .pageNumbers(let lastPage, let limit, let size) = page.continuation {
                probeLimit = min(lastAllowed, limit)
                // The first page is taken even where its count ends the list before it (`--start-page` past it).
                last = max(first, min(lastPage, probeLimit))
                pageSize = size
            } else {
                last = first
            }
        }
        parked[number] = outcome
        var ready: [(Int, Result<SourcePage, ExportError>)] = []
        while let last, handed <= last, let outcome = parked.removeValue(forKey: handed) {
            ready.append((handed, outcome))
            handed += 1
        }
        return ready
    }
}
