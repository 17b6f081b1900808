/// The collection store's part of a run: which kind of run to make (full, incremental, from the store alone),
/// what a page does to the collection, and what the store keeps afterwards.
extension ExportInteractor {
    /// What a run will walk, and what it starts from.
    struct RunPlan {
        /// What to harvest; `nil` when the catalog is made from the store alone.
        var source: (any CollectionSource)?
        var cacheMode: CacheMode
        /// Whether the run starts from the stored collection (an incremental run, or one from the store alone). It
        /// is read when the harvest starts, and again only if the harvest has to start over: not held meanwhile.
        var fromStore = false
        /// The changes an incremental run asks for.
        var window: ChangeWindow?
        var state: StoreState
        var notices: [String] = []
        /// Whether a long OAI-PMH list may be cut into date windows; `nil`: one chain.
        var windowing: Windowing?
    }

    /// Decides the run (see `basePlan`), then whether its OAI-PMH listing is cut into date windows.
    func plan(options: HarvestOptions) async throws(ExportError) -> RunPlan {
        var plan = try await basePlan(options: options)
        planWindows(&plan, options: options)
        return plan
    }

    /// Whether a long OAI-PMH list may be cut into date windows, `--concurrency` chains at once (at most the
    /// host's ceiling; `--chains` says exactly how many). The worker decides on the list's first page.
    private func planWindows(_ plan: inout RunPlan, options: HarvestOptions) {
        guard let windowed = plan.source as? any WindowedSource, options.maxPages == nil, plan.cacheMode != .offline
        else { return }
        let chains = min(options.chains ?? min(options.concurrency, windowed.chainCeiling), 64)
        guard chains > 1 else { return }
        // Only a full run's span is kept: an incremental run's window is kept already.
        let store = plan.window == nil ? self.store : nil
        plan.windowing = Windowing(
            chains: chains, explicit: options.chains != nil, changes: plan.window,
            unfinished: plan.window == nil ? plan.state.pending : nil,
            record: { span in
                // A full run's span, kept so that a run cut off part way asks for the same windows again.
                try? store?.begin(span)
            })
    }

    /// Decides the run: from the store alone with `--offline`; only the changes since the last complete harvest
    /// when the source has a change feed and the store a harvest; else every page.
    private func basePlan(options: HarvestOptions) async throws(ExportError) -> RunPlan {
        guard let store else { return RunPlan(source: source, cacheMode: cacheMode, state: StoreState()) }
        let state = try store.state()
        if cacheMode == .offline {
            guard state.harvests > 0 else { return RunPlan(source: source, cacheMode: .offline, state: state) }
            return RunPlan(
                source: nil, cacheMode: .offline, fromStore: true, state: state,
                notices: [
                    "offline: the catalog was made from the collection store alone (\(store.location)), "
                        + "as harvested up to \(state.harvestedAt ?? "the last complete run")"
                ])
        }
        guard !options.full, options.maxPages == nil, state.harvests > 0, let since = state.harvestedAt,
            let incremental = source as? any IncrementalSource, incremental.listsChanges
        else {
            return RunPlan(source: source, cacheMode: cacheMode, state: state)
        }
        var notices: [String] = []
        let window: ChangeWindow
        if let pending = state.pending {
            // A run killed part way asked for this window: asking for it again finds its pages in the cache.
            window = pending
            notices.append(
                "resumed the incremental harvest of changes from \(pending.from) to \(pending.until) that an "
                    + "earlier run left unfinished")
        } else {
            let clock = try await serverClock(incremental, options: options)
            window = ChangeWindow(from: clock.formatted(since), until: clock.formatted(clock.now))
            try store.begin(window)
        }
        return RunPlan(
            source: incremental.changes(in: window), cacheMode: cacheMode, fromStore: true, window: window,
            state: state, notices: notices)
    }

    /// The server's clock and granularity (OAI-PMH `Identify`), asked once per incremental run, never cached,
    /// with the run's own retries, rate and timeouts.
    private func serverClock(
        _ incremental: any IncrementalSource, options: HarvestOptions
    ) async throws(ExportError) -> ServerClock {
        let worker = HarvestWorker(
            source: incremental, transport: transport, options: options, logger: logger, sleeper: sleeper)
        return try await worker.serverClock(of: incremental)
    }

    /// Stores what the run read, when it read everything it meant to: the whole collection after a full run,
    /// the changed and deleted records after an incremental one. Returns what changed.
    func keep(
        _ run: RunState, plan: RunPlan, options: HarvestOptions, complete: Bool, notices: inout [String]
    ) throws(ExportError) -> StoreChanges? {
        guard let store else { return nil }
        guard plan.source != nil else { return StoreChanges() }
        guard complete, options.maxPages == nil else {
            notices.append(
                "the collection store (\(store.location)) was left as it was: this run did not read the whole "
                    + "collection")
            return nil
        }
        var state = plan.state
        state.pending = nil
        state.harvests += 1
        if let window = plan.window {
            state.harvestedAt = window.until
            return try store.commitRun(incremental: true, state: state)
        }
        // A windowed harvest listed everything up to its span's end, by the server's clock.
        state.harvestedAt = run.span?.until ?? run.serverTime
        return try store.commitRun(incremental: false, state: state)
    }
}
