import Logging

/// OAI-PMH in parallel date windows: a resumption-token chain is serial by protocol, but selective harvesting
/// (`from`/`until`) makes any date window a chain of its own, and each window's first page says how many
/// records it holds (`completeListSize`). So the span is cut by adaptive bisection: a window whose first page
/// says it is larger than the target is split in two (its first page is dropped, one request), down to one
/// granule (a second, or a day), and the windows run `chains` at a time, largest first, each as fast as a
/// single chain.
extension HarvestWorker {
    /// What a windowed harvest did, for the summary.
    package struct WindowReport: Sendable, Equatable {
        /// Records the whole span holds, as its first page said.
        package var total: Int?
        /// Windows walked to their end.
        package var windows = 0
        /// Chains run at once.
        package var chains = 0
        /// Why the harvest was not windowed, or how it was.
        package var notices: [String] = []
    }

    /// A window still to walk, with what is known of its size.
    struct PlannedWindow: Sendable {
        var window: DateWindow
        /// Records it holds, as measured (or half its parent's, until measured).
        var estimate: Int
        /// Whether its first page decides whether to split it.
        var measure: Bool
    }

    /// Harvests the span `range` of `windowed` in date windows, handing every page over as it arrives (in any
    /// order, each with a place that is the same whatever the concurrency: windows are numbered by their start).
    /// Falls back to one chain, saying why, when the span cannot be cut (no `completeListSize`, records that
    /// share a datestamp, a repository that refuses `from`/`until`).
    package func harvestWindows(
        _ windowed: any WindowedSource, range: DateWindow, chains requested: Int,
        _ receive: (HarvestEvent) throws -> Void
    ) async throws -> WindowReport {
        let chains = max(1, requested)
        var report = WindowReport(chains: chains)
        let root = walking(windowed.changes(in: range.change))
        let first: SourcePage
        let prefetched: Prefetch?
        do {
            // The whole span is usually cut: its next page is not fetched ahead.
            (first, prefetched) = try await root.fetchAhead(.token(nil), prefetching: chains == 1)
        } catch {
            // A repository that refuses `from`/`until` (badArgument) is harvested as one chain, as before.
            report.notices.append(
                "the repository refused a date window (\(error.description)); harvested as one chain instead")
            try await walking(windowed).harvest(receive)
            return report
        }
        report.total = first.reportedTotal
        if let total = first.reportedTotal { try receive(.measured(total: total)) }
        let target = max(1, (first.reportedTotal ?? 0) / (4 * chains))
        var planned: [PlannedWindow]
        if first.reportedTotal == nil, chains > 1, range.halves() != nil {
            // No completeListSize: cut the span evenly and measure each window by walking it.
            prefetched?.cancel()
            planned = range.pieces(4 * chains).map { PlannedWindow(window: $0, estimate: 0, measure: false) }
            report.notices.append(
                "the repository does not say how many records a window holds (no completeListSize): the span was "
                    + "cut into \(planned.count) equal date windows")
        } else if let total = first.reportedTotal, total > target, chains > 1, range.halves() != nil {
            prefetched?.cancel()
            planned = Self.split(range, size: total, target: target, chains: chains)
        } else {
            // Small enough, one granule, or one chain asked for: the root is walked as it is.
            try receive(.page(PageReference(index: 0, cursor: .token(nil)), first))
            let end = try await walkChain(
                root, range: range, window: range, first: first, prefetched: prefetched,
                yield: { try receive(.page($0, $1)) })
            if case .tokenExpired(let message, let page) = end {
                throw ExportError(.harvest(.api(message)), source: source.descriptor.name, page: page.description)
            }
            report.windows = 1
            if range.halves() == nil, (first.reportedTotal ?? 0) > target, chains > 1 {
                report.notices.append(
                    "every record shares one datestamp \(range.daysOnly ? "day" : "second"), so the harvest is one chain"
                )
            }
            return report
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
            for try await (reference, page) in stream { try receive(.page(reference, page)) }
        } catch {
            scheduler.cancel()
            throw error
        }
        report.windows = try await scheduler.value
        report.notices.append(
            "harvested in \(report.windows) date windows, up to \(chains) chains at once"
                + (first.reportedTotal.map { " (\(NumberText.grouped($0)) records in the span)" } ?? ""))
        return report
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
            let (first, prefetched) = try await walker.fetchAhead(.token(nil), prefetching: !mayBeCut)
            if attempt == 0, planned.measure, let size = first.reportedTotal, size > target,
                planned.window.halves() != nil
            {
                prefetched?.cancel()
                return Self.split(planned.window, size: size, target: target, chains: chains)
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
    static func split(_ window: DateWindow, size: Int, target: Int, chains: Int) -> [PlannedWindow] {
        let count = min(max(2, (size + target - 1) / target), 2 * chains)
        let pieces = window.pieces(count)
        return pieces.map { PlannedWindow(window: $0, estimate: size / pieces.count, measure: true) }
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
