import Logging

/// OAI-PMH in parallel date windows: a resumption-token chain is serial by protocol, but selective harvesting
/// (`from`/`until`) makes any date window a chain of its own, and each window's first page says how many records it
/// holds (`completeListSize`). A long list's first page measures it; the span the repository states (its earliest
/// datestamp to its clock) is cut into pieces, the first open before and the last open after, so together they list
/// everything whatever the stated span; a piece measured larger than the target is cut again while its size
/// shrinks, down to one granule (a second, or a day); the windows run `chains` at a time, largest first.
///
/// Nothing the server says is trusted unchecked: a window whose first page lists records dated outside it means
/// the repository ignores the dates, and the list is walked as one chain instead; a window that says it holds as
/// many records as the one it was cut from is walked uncut; sizes are clamped.
extension HarvestWorker {
    /// A window's first request was refused (`badArgument`), or its first page lists records outside it: the
    /// repository does not take `from`/`until` as asked.
    struct WindowRefused: Error {
        var reason: String
    }

    /// Harvests a long list in date windows, its first page (`first`, not handed over) having measured it.
    /// Returns `false`, handing nothing over, when the span cannot be cut (one granule, no earliest datestamp, an
    /// unreadable `Identify`); the caller walks one chain then.
    func harvestWindows(
        _ windowed: any WindowedSource, _ windowing: Windowing, first: SourcePage,
        _ events: (HarvestEvent) throws -> Void
    ) async throws -> Bool {
        guard let (root, span) = try await plan(windowed, windowing, events) else { return false }
        guard root.canCut(in: span) else {
            try events(.notice("the span to harvest is one \(root.daysOnly ? "day" : "second"): one chain"))
            return false
        }
        try events(.windowsStart(span.lowerBound, daysOnly: root.daysOnly))
        let chains = windowing.chains
        let total = Self.size(of: first)
        let target = windowing.target(total: total, pageSize: first.records.count)
        let planned: [PlannedWindow]
        if let total {
            try events(.measured(total: total))
            planned = Self.split(root, size: total, target: target, chains: chains, span: span, first: first)
        } else {
            planned = root.pieces(4 * chains, in: span).map {
                PlannedWindow(window: $0, estimate: 0, measure: false)
            }
            try events(
                .notice(
                    "the repository does not say how many records a window holds (no completeListSize): the span "
                        + "was cut into \(planned.count) equal date windows"))
        }

        let (stream, continuation) = AsyncThrowingStream.makeStream(of: HarvestEvent.self)
        let started = Locked(0)
        let scheduler = Task {
            do {
                let walked = try await runWindows(
                    windowed, span: span, planned: planned, chains: chains, target: target, started: started,
                    yield: { continuation.yield($0) })
                if root.until == nil {
                    try await listSinceSpan(windowed, span: span, daysOnly: root.daysOnly) { continuation.yield($0) }
                }
                continuation.finish()
                return walked
            } catch {
                continuation.finish(throwing: error)
                throw error
            }
        }
        do {
            for try await event in stream { try events(event) }
        } catch let refused as WindowRefused {
            // What arrived is void: the windows still walking stop, and the list is walked as one chain.
            scheduler.cancel()
            _ = try? await scheduler.value
            let tried = started.current
            try events(
                .restart(
                    notice: "\(refused.reason); harvested as one chain instead (after \(tried) date "
                        + "\(tried == 1 ? "window" : "windows"))"))
            try await walking(windowed).harvest(events)
            return true
        } catch {
            // The windows still walking stop, and are waited for: nothing of this harvest goes on after it failed.
            scheduler.cancel()
            _ = try? await scheduler.value
            throw error
        }
        let (walked, uncut) = try await scheduler.value
        try events(
            .notice(
                "harvested in \(walked) date windows, up to \(chains) chains at once"
                    + (total.map { " (\(NumberText.grouped($0)) records in the span)" } ?? "")))
        if uncut > 0 {
            try events(
                .notice(
                    "\(uncut) date \(uncut == 1 ? "window says" : "windows say") \(uncut == 1 ? "it holds" : "they hold") "
                        + "as many records as the span \(uncut == 1 ? "it was" : "they were") cut from, so "
                        + "\(uncut == 1 ? "it was" : "they were") walked uncut"))
        }
        return true
    }

    /// The window to cut (the whole listing: the user's `--from`/`--until`, or an incremental run's changes) and the
    /// span its cuts fall in: the changes' `from` to the server's clock when the run began; else [`--from` or the
    /// earliest datestamp, `--until` or the server's now] by `Identify`, or the span a run of this harvest that did
    /// not finish recorded. `nil`, with a notice, when there is none.
    private func plan(
        _ windowed: any WindowedSource, _ windowing: Windowing, _ events: (HarvestEvent) throws -> Void
    ) async throws -> (DateWindow, ClosedRange<Int>)? {
        if let changes = windowing.changes, let from = changes.from, let until = changes.until {
            let daysOnly = from.utf8.count == 10
            guard let root = DateWindow(from: from, until: nil, daysOnly: daysOnly),
                let end = DateWindow(from: until, until: until, daysOnly: daysOnly)?.until, let start = root.from,
                start <= end
            else {
                try events(.notice("the changes from \(from) cannot be cut into windows; one chain"))
                return nil
            }
            return (root, start...end)
        }
        let span: ChangeWindow
        let daysOnly: Bool
        if let planned = windowing.planned, let from = planned.from, planned.until != nil {
            span = planned
            daysOnly = from.utf8.count == 10
        } else {
            let clock: ServerClock
            do {
                if let asked = windowing.clock { clock = asked } else { clock = try await serverClock(of: windowed) }
            } catch {
                try events(.notice("the repository's Identify could not be read (\(error)); harvested as one chain"))
                return nil
            }
            guard let from = windowed.from ?? clock.earliest else {
                try events(.notice("the repository names no earliest datestamp in Identify; harvested as one chain"))
                return nil
            }
            span = ChangeWindow(from: clock.formatted(from), until: clock.formatted(windowed.until ?? clock.now))
            daysOnly = clock.daysOnly
            windowing.record(span)
        }
        try events(.span(span))
        guard let root = DateWindow(from: windowed.from, until: windowed.until, daysOnly: daysOnly),
            let range = DateWindow(from: span.from, until: span.until, daysOnly: daysOnly), let lower = range.from,
            let upper = range.until
        else {
            try events(
                .notice("the span \(span.from ?? "") to \(span.until ?? "") cannot be cut into windows; one chain"))
            return nil
        }
        return (root, lower...upper)
    }

    /// Runs the planned windows, `chains` at a time, largest first; a window measured larger than `target` is
    /// split and its pieces planned. Returns how many windows were walked, and how many of them were walked uncut
    /// because they did not shrink.
    private func runWindows(
        _ windowed: any WindowedSource, span: ClosedRange<Int>, planned initial: [PlannedWindow], chains: Int,
        target: Int, started: Locked<Int>, yield: @escaping @Sendable (HarvestEvent) -> Void
    ) async throws -> (walked: Int, uncut: Int) {
        try await withThrowingTaskGroup(of: WindowEnd.self) { group in
            var pending = initial
            var running = 0
            var (walked, uncut) = (0, 0)
            while true {
                // Largest last, so `popLast` starts it first; ties by start, for a plan that repeats.
                pending.sort { ($0.estimate, $1.window) < ($1.estimate, $0.window) }
                while running < chains, let next = pending.popLast() {
                    started.withLock { $0 += 1 }
                    group.addTask {
                        try await walkWindow(
                            windowed, span: span, planned: next, target: target, chains: chains, yield: yield)
                    }
                    running += 1
                }
                counters.setWindows(WindowCounts(planned: pending.count, running: running, done: walked))
                guard running > 0, let end = try await group.next() else { break }
                running -= 1
                switch end {
                case .split(let pieces): pending += pieces
                case .walked(let didNotShrink):
                    walked += 1
                    if didNotShrink { uncut += 1 }
                }
            }
            return (walked, uncut)
        }
    }

    /// How walking a window ended: cut into pieces to plan, or walked to its end (uncut though too large, when it
    /// did not shrink).
    enum WindowEnd: Sendable {
        case split([PlannedWindow])
        case walked(didNotShrink: Bool)
    }

    /// Walks one window: its first page, then, unless it is measured too large and split (its pieces are
    /// returned), its chain to the end. An expired token restarts the window alone.
    private func walkWindow(
        _ windowed: any WindowedSource, span: ClosedRange<Int>, planned: PlannedWindow, target: Int, chains: Int,
        yield: @escaping @Sendable (HarvestEvent) -> Void
    ) async throws -> WindowEnd {
        var walker = walking(windowed.changes(in: planned.window.change))
        var didNotShrink = false
        var endBefore: ChainEnd?
        for attempt in 0..<2 {
            // A window likely to be cut does not fetch its next page ahead (it would be dropped).
            let mayBeCut = attempt == 0 && planned.measure && planned.estimate > target
            let first: SourcePage
            let prefetched: Prefetch?
            do {
                (first, prefetched) = try await walker.fetchAhead(.token(nil), prefetching: !mayBeCut)
            } catch {
                if attempt == 0, case .harvest(.datesRefused) = error.reason {
                    throw WindowRefused(reason: "the repository refused a date window (\(error))")
                }
                throw error
            }
            if Self.listsOutside(first, planned.window) {
                await prefetched?.cancel()
                throw WindowRefused(
                    reason: "the repository ignores from and until: a date window's first page lists records dated "
                        + "outside it")
            }
            if attempt == 0, planned.measure, let size = Self.size(of: first), size > target,
                planned.window.canCut(in: span)
            {
                if planned.parent.map({ size < $0 }) ?? true {
                    await prefetched?.cancel()
                    return .split(
                        Self.split(planned.window, size: size, target: target, chains: chains, span: span, first: first)
                    )
                }
                didNotShrink = true
            }
            yield(.page(Self.place(of: 0, in: planned, span: span, attempt: attempt), first))
            let end = try await walkChain(
                walker, span: span, planned: planned, attempt: attempt, first: first, prefetched: prefetched,
                yield: { yield(.page($0, $1)) })
            guard case .tokenExpired(let message, let page, _) = end else {
                return .walked(didNotShrink: didNotShrink)
            }
            if let endBefore {
                guard end.confirms(endBefore) else {
                    throw ExportError(.harvest(.api(message)), source: source.descriptor.name, page: page.description)
                }
                yield(.notice(ChainEnd.confirmedNotice))
                return .walked(didNotShrink: didNotShrink)
            }
            endBefore = end
            // The server forgot this window's token (a restart, a timeout), or its list changed under the stored
            // pages: this window starts over, fetched anew; every other window goes on. Its records stand (its new
            // pages list each again, as late or later, at places after them); what its pages counted is taken back.
            let start = Self.place(of: 0, in: planned, span: span).index
            yield(.windowStartedOver(pages: start..<(start + Self.pagesPerAttempt)))
            logger.warning(
                "\(message); harvesting that window again",
                metadata: [
                    "from": "\(planned.window.change.from ?? "")", "until": "\(planned.window.change.until ?? "")",
                ])
            walker = walking(windowed.changes(in: planned.window.change), readsCache: false)
        }
        return .walked(didNotShrink: didNotShrink)
    }

    /// The records saved since the span's end, listed once more after every window: a record saved while an
    /// earlier window paged through a list ordered by datestamp left it (and may have made another slide past the
    /// page read); listed again here, after the last window may have finished, its move is seen (`RunCollection`).
    private func listSinceSpan(
        _ windowed: any WindowedSource, span: ClosedRange<Int>, daysOnly: Bool,
        yield: @escaping @Sendable (HarvestEvent) -> Void
    ) async throws {
        // Asked of the server even when resuming: a page the last window (or a killed run) stored holds no record
        // saved since.
        let since = DateWindow(
            from: span.upperBound - (daysOnly ? 0 : Datestamp.settling), until: nil, daysOnly: daysOnly)
        _ = try await walking(windowed, readsCache: false).walkWindow(
            windowed, span: span, planned: PlannedWindow(window: since, estimate: 0, measure: false, relists: true),
            target: Int.max, chains: 1, yield: yield)
    }

    /// Walks a window's chain after its first page, handing pages over with their places.
    private func walkChain(
        _ walker: HarvestWorker, span: ClosedRange<Int>, planned: PlannedWindow, attempt: Int, first: SourcePage,
        prefetched: Prefetch?, yield: (PageReference, SourcePage) throws -> Void
    ) async throws -> ChainEnd {
        switch first.continuation {
        case .next(.some(let cursor)):
            return try await walker.harvestChain(
                from: cursor, after: first, prefetched: prefetched, pageLimit: Int.max
            ) {
                reference, page in
                try yield(
                    Self.place(
                        of: reference.index, in: planned, span: span, attempt: attempt, cursor: reference.cursor),
                    page)
            }
        case .expiredToken(let message):
            await prefetched?.cancel()
            return .tokenExpired(message, page: .token(nil))
        default:
            await prefetched?.cancel()
            return .finished
        }
    }

    /// This worker walking another source (a window of this one): the same rate ceiling, prefetch slots,
    /// counters and page cache.
    func walking(_ other: any CollectionSource, readsCache: Bool? = nil) -> HarvestWorker {
        HarvestWorker(sharing: self, source: other, readsCache: readsCache ?? self.readsCache)
    }
}
