import Logging

/// OAI-PMH in parallel date windows: a resumption-token chain is serial by protocol, but selective harvesting
/// (`from`/`until`) makes any date window a chain of its own, and each window's first page says how many
/// records it holds (`completeListSize`). So the span is cut by adaptive bisection: a window whose first page
/// says it is larger than the target is split in two (its first page is dropped, one request), down to one
/// granule (a second, or a day), and the windows run `chains` at a time, largest first, each as fast as a
/// single chain.
/// How a long OAI-PMH list may be cut into date windows, as the Interactor allows it.
package struct Windowing: Sendable {
    /// Chains at once.
    package var chains: Int
    /// Whether the user asked for windows (`--chains`): then a list whose size is unknown is cut too.
    package var explicit: Bool
    /// The span of an incremental run (its change window): the windows cut it; no `Identify` is needed.
    package var changes: ChangeWindow?
    /// The span a full run that did not finish recorded: used again when it starts where this one would.
    package var unfinished: ChangeWindow?
    /// Keeps a full run's span before its first window is asked for (the collection store).
    package var record: @Sendable (ChangeWindow) -> Void

    package init(
        chains: Int, explicit: Bool, changes: ChangeWindow? = nil, unfinished: ChangeWindow? = nil,
        record: @escaping @Sendable (ChangeWindow) -> Void = { _ in }
    ) {
        self.chains = chains
        self.explicit = explicit
        self.changes = changes
        self.unfinished = unfinished
        self.record = record
    }

    /// Whether a list whose first page is this is long enough to cut: more than ten pages (a short list is one
    /// chain, as it always was), or of unknown length when the user asked for windows.
    func worthWindows(_ first: SourcePage) -> Bool {
        guard chains > 1, case .next(.some) = first.continuation else { return false }
        guard let total = first.reportedTotal else { return explicit }
        return total > 10 * max(first.records.count, 1)
    }

    /// A window worth a chain of its own: a quarter of a chain's share, and at least ten pages.
    func target(total: Int?, pageSize: Int) -> Int {
        max(1, (total ?? 0) / (4 * chains), 10 * pageSize)
    }
}

/// OAI-PMH in parallel date windows: a resumption-token chain is serial by protocol, but selective harvesting
/// (`from`/`until`) makes any date window a chain of its own, and each window's first page says how many
/// records it holds (`completeListSize`). A long list's first page measures it; the span is then cut into equal
/// pieces, and a piece measured larger than the target is cut again, down to one granule (a second, or a day);
/// the windows run `chains` at a time, largest first, each as fast as a single chain.
extension HarvestWorker {
    /// A window still to walk, with what is known of its size.
    struct PlannedWindow: Sendable {
        var window: DateWindow
        /// Records it holds, as measured (or its share of its parent's, until measured).
        var estimate: Int
        /// Whether its first page decides whether to cut it.
        var measure: Bool
    }

    /// A window's first request failed: the repository may not take `from`/`until` at all.
    struct WindowRefused: Error {
        var failure: any Error
    }

    /// Harvests a long list in date windows, its first page (`first`, not handed over) having measured it.
    /// Returns `false`, handing nothing over, when the span cannot be cut (one granule, no earliest datestamp, an
    /// unreadable `Identify`); the caller walks one chain then.
    func harvestWindows(
        _ windowed: any WindowedSource, _ windowing: Windowing, first: SourcePage,
        _ events: (HarvestEvent) throws -> Void
    ) async throws -> Bool {
        guard let (range, span) = try await span(of: windowed, windowing, events) else { return false }
        guard range.halves() != nil else {
            try events(
                .notice("the span \(span.from) to \(span.until) is one \(range.daysOnly ? "day" : "second"): one chain")
            )
            return false
        }
        windowing.record(span)
        try events(.span(span))
        let chains = windowing.chains
        let target = windowing.target(total: first.reportedTotal, pageSize: first.records.count)
        let planned: [PlannedWindow]
        if let total = first.reportedTotal {
            try events(.measured(total: total))
            planned = Self.split(range, size: total, target: target, chains: chains, first: first)
        } else {
            planned = range.pieces(4 * chains).map { PlannedWindow(window: $0, estimate: 0, measure: false) }
            try events(
                .notice(
                    "the repository does not say how many records a window holds (no completeListSize): the span "
                        + "was cut into \(planned.count) equal date windows"))
        }

        let (stream, continuation) = AsyncThrowingStream.makeStream(of: (PageReference, SourcePage).self)
        let scheduler = Task {
            do {
                let walked = try await runWindows(
                    windowed, range: range, planned: planned, chains: chains, target: target,
                    yield: { continuation.yield(($0, $1)) })
                continuation.finish()
                return walked
            } catch {
                continuation.finish(throwing: error)
                throw error
            }
        }
        do {
            for try await (reference, page) in stream { try events(.page(reference, page)) }
        } catch let refused as WindowRefused {
            // A repository that refuses `from`/`until` (badArgument): what arrived is void, one chain instead.
            scheduler.cancel()
            try events(
                .restart(
                    notice: "the repository refused a date window (\(refused.failure)); harvested as one chain instead")
            )
            let chain = walking(windowed)
            if case .tokenExpired(let message, let page) = try await chain.harvestOnce(events) {
                throw ExportError(.harvest(.api(message)), source: source.descriptor.name, page: page.description)
            }
            return true
        } catch {
            // The windows still walking stop, and are waited for: nothing of this harvest goes on after it failed.
            scheduler.cancel()
            _ = try? await scheduler.value
            throw error
        }
        let walked = try await scheduler.value
        try events(
            .notice(
                "harvested in \(walked) date windows, up to \(chains) chains at once"
                    + (first.reportedTotal.map { " (\(NumberText.grouped($0)) records in the span)" } ?? "")))
        return true
    }

    /// The span to cut: an incremental run's window; else [`--from` or the earliest datestamp, `--until` or the
    /// server's now] by `Identify` (or the span an unfinished run recorded, when it starts there too). `nil`,
    /// with a notice, when there is none.
    private func span(
        of windowed: any WindowedSource, _ windowing: Windowing, _ events: (HarvestEvent) throws -> Void
    ) async throws -> (DateWindow, ChangeWindow)? {
        if let changes = windowing.changes {
            return DateWindow(from: changes.from, until: changes.until, daysOnly: changes.from.utf8.count == 10)
                .map { ($0, changes) }
        }
        let clock: ServerClock
        do {
            clock = try await serverClock(of: windowed)
        } catch {
            try events(.notice("the repository's Identify could not be read (\(error)); harvested as one chain"))
            return nil
        }
        guard let from = windowed.from ?? clock.earliest else {
            try events(.notice("the repository names no earliest datestamp in Identify; harvested as one chain"))
            return nil
        }
        var span = ChangeWindow(from: clock.formatted(from), until: clock.formatted(windowed.until ?? clock.now))
        if let unfinished = windowing.unfinished, unfinished.from == span.from {
            // A run that did not finish: the same span gives the same windows, whose pages the cache holds.
            span = unfinished
        }
        guard let range = DateWindow(from: span.from, until: span.until, daysOnly: clock.daysOnly) else {
            try events(.notice("the span \(span.from) to \(span.until) cannot be cut into windows; one chain"))
            return nil
        }
        return (range, span)
    }

    /// Runs the planned windows, `chains` at a time, largest first; a window measured larger than `target` is
    /// split and its halves planned. Returns how many windows were walked.
    private func runWindows(
        _ windowed: any WindowedSource, range: DateWindow, planned initial: [PlannedWindow], chains: Int,
        target: Int, yield: @escaping @Sendable (PageReference, SourcePage) -> Void
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: [PlannedWindow]?.self) { group in
            var pending = initial
            var running = 0
            var walked = 0
            while true {
                // Largest last, so `popLast` starts it first; ties by start, for a plan that repeats.
                pending.sort { ($0.estimate, $1.window) < ($1.estimate, $0.window) }
                while running < chains, let next = pending.popLast() {
                    group.addTask {
                        try await walkWindow(
                            windowed, range: range, planned: next, target: target, chains: chains, yield: yield)
                    }
                    running += 1
                }
                counters.setWindows(WindowCounts(planned: pending.count, running: running, done: walked))
                guard running > 0, let produced = try await group.next() else { break }
                running -= 1
                if let split = produced { pending += split } else { walked += 1 }
            }
            return walked
        }
    }

    /// Walks one window: its first page, then, unless it is measured too large and split (its halves are
    /// returned), its chain to the end (`nil` is returned). An expired token restarts the window alone.
    private func walkWindow(
        _ windowed: any WindowedSource, range: DateWindow, planned: PlannedWindow, target: Int, chains: Int,
        yield: @escaping @Sendable (PageReference, SourcePage) -> Void
    ) async throws -> [PlannedWindow]? {
        var walker = walking(windowed.changes(in: planned.window.change))
        for attempt in 0..<2 {
            // A window likely to be cut does not fetch its next page ahead (it would be dropped).
            let mayBeCut = attempt == 0 && planned.measure && planned.estimate > target
            let first: SourcePage
            let prefetched: Prefetch?
            do {
                (first, prefetched) = try await walker.fetchAhead(.token(nil), prefetching: !mayBeCut)
            } catch {
                // The repository's own error to a first request (badArgument): it may not take `from`/`until`.
                if attempt == 0, case .harvest(.api) = error.reason { throw WindowRefused(failure: error) }
                throw error
            }
            if attempt == 0, planned.measure, let size = first.reportedTotal, size > target,
                planned.window.halves() != nil
            {
                prefetched?.cancel()
                return Self.split(planned.window, size: size, target: target, chains: chains, first: first)
            }
            yield(Self.place(of: 0, in: planned.window, range: range), first)
            let end = try await walkChain(
                walker, range: range, window: planned.window, first: first, prefetched: prefetched,
                yield: { yield($0, $1) })
            guard case .tokenExpired(let message, let page) = end else { return nil }
            guard attempt == 0 else {
                throw ExportError(.harvest(.api(message)), source: source.descriptor.name, page: page.description)
            }
            // The server forgot this window's token (a restart, a timeout): this window starts over, fetched
            // anew; every other window goes on.
            logger.warning(
                "a window's resumption token expired; harvesting that window again",
                metadata: ["from": "\(planned.window.change.from)", "until": "\(planned.window.change.until)"])
            walker = walking(windowed.changes(in: planned.window.change), cacheMode: .refresh)
        }
        return nil
    }

    /// A window measured too large, cut into as many equal pieces as it holds targets (2 to twice the chains):
    /// a repository's datestamps bunch up (a bulk load, a re-index in one second), so a few cuts of many pieces
    /// find the bunch in fewer round trips than halving, and an empty piece costs one short answer.
    ///
    /// When every object of the window's first page (`first`) has one datestamp, the bunch is likely there: that
    /// granule is planned as a window of its own, walked at once (it cannot be cut), and the rest of the window
    /// around it is measured as usual. A night's changes written in one second were found by six rounds of cuts
    /// (37 requests for 20 pages), each round waiting for the one before.
    static func split(
        _ window: DateWindow, size: Int, target: Int, chains: Int, first: SourcePage? = nil
    ) -> [PlannedWindow] {
        if let bunch = first.flatMap({ Self.bunch(of: $0, in: window) }) {
            return [PlannedWindow(window: bunch, estimate: size, measure: false)]
                + window.around(bunch).map { PlannedWindow(window: $0, estimate: 0, measure: true) }
        }
        let count = min(max(2, (size + target - 1) / target), 2 * chains)
        let pieces = window.pieces(count)
        return pieces.map { PlannedWindow(window: $0, estimate: size / pieces.count, measure: true) }
    }

    /// The one granule of `window` (not the whole of it) in which every object of its first page was changed, when
    /// the page has at least two objects; `nil` otherwise.
    static func bunch(of first: SourcePage, in window: DateWindow) -> DateWindow? {
        var bunch: DateWindow?
        var objects = 0
        for case .object(let object) in first.records {
            guard let datestamp = object.datestamp,
                let granule = DateWindow(from: datestamp, until: datestamp, daysOnly: window.daysOnly),
                bunch == nil || bunch == granule
            else { return nil }
            bunch = granule
            objects += 1
        }
        guard objects >= 2, let bunch, window.from <= bunch.from, bunch.until <= window.until, bunch != window else {
            return nil
        }
        return bunch
    }

    /// Walks a window's chain after its first page, handing pages over with their places.
    private func walkChain(
        _ walker: HarvestWorker, range: DateWindow, window: DateWindow, first: SourcePage, prefetched: Prefetch?,
        yield: (PageReference, SourcePage) throws -> Void
    ) async throws -> ChainEnd {
        switch first.continuation {
        case .next(.some(let cursor)):
            return try await walker.harvestChain(from: cursor, prefetched: prefetched, pageLimit: Int.max) {
                reference, page in
                try yield(Self.place(of: reference.index, in: window, range: range, cursor: reference.cursor), page)
            }
        case .expiredToken(let message):
            prefetched?.cancel()
            return .tokenExpired(message, page: .token(nil))
        default:
            prefetched?.cancel()
            return .finished
        }
    }

    /// A page's place in the source's order: windows by their start, pages in order within a window.
    static func place(
        of page: Int, in window: DateWindow, range: DateWindow, cursor: PageCursor = .token(nil)
    ) -> PageReference {
        let granule = window.daysOnly ? 86_400 : 1
        return PageReference(index: (window.from - range.from) / granule * 1_000_000 + page, cursor: cursor)
    }

    /// This worker walking another source (a window of this one): the same rate ceiling, prefetch slots,
    /// counters and cache.
    func walking(_ other: any CollectionSource, cacheMode mode: CacheMode? = nil) -> HarvestWorker {
        HarvestWorker(sharing: self, source: other, cacheMode: mode ?? cacheMode)
    }
}
