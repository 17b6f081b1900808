/// The collection store's part of a run: which kind of run to make (full, incremental, from the store alone),
/// which harvest it walks (a new one, or the one a run left unfinished), and what the store keeps afterwards.
extension ExportInteractor {
    /// What a run will walk, and what it starts from.
    struct RunPlan {
        /// What to harvest; `nil` when the catalog is made from the store alone.
        var source: (any CollectionSource)?
        /// The harvest the run walks, as the store records it; `nil` without a store, or for a run that reads only
        /// part of the collection (`--max-pages`).
        var harvest: PendingHarvest?
        /// Whether the harvest's stored pages are read back: it is resumed.
        var resumed = false
        /// Whether the run starts from the stored collection (an incremental run, or one from the store alone).
        var fromStore = false
        /// The changes an incremental run asks for: from the last complete harvest's start, open after.
        var window: ChangeWindow?
        var state: StoreState
        var notices: [String] = []
        /// Whether a long OAI-PMH list may be cut into date windows; `nil`: one chain.
        var windowing: Windowing?
        /// The server's clock, when this run asked for it.
        var clock: ServerClock?
        /// The name the repository gives itself, for a source that stands for any repository.
        var repositoryName: String?
    }

    /// Decides the run (see `basePlan`), then whether its OAI-PMH listing is cut into date windows.
    /// - parameter full: harvest everything whatever the store could ask for (an incremental run refused).
    func plan(options: HarvestOptions, full: Bool = false) async throws(ExportError) -> RunPlan {
        var plan = try await basePlan(options: options, full: full)
        try await nameRepository(&plan, options: options)
        planWindows(&plan, options: options)
        return plan
    }

    /// The name a repository given by its address alone gives itself: from the `Identify` this run asks anyway
    /// (a night, a list cut into windows), else from one asked for it, else as the store last heard it. An
    /// answer that cannot be read leaves the catalog named after the source, with a notice.
    private func nameRepository(_ plan: inout RunPlan, options: HarvestOptions) async throws(ExportError) {
        guard source.descriptor.namedByRepository else { return }
        plan.repositoryName = plan.state.repositoryName
        if plan.clock == nil, plan.source != nil, let incremental = source as? any IncrementalSource {
            do {
                plan.clock = try await serverClock(incremental, options: options)
            } catch {
                // A repository that cannot be reached fails the same way on its first page: say so once. One that
                // still answers Identify with a web page after the retries answers, but not to Identify.
                if case .harvest(let failure) = error.reason, failure.isTransient {
                    guard case .unavailable(200..<300, _, _) = failure else { throw error }
                }
                plan.notices.append("the repository's Identify could not be read (\(error)); its name is not known")
            }
        }
        // An Identify read this run names the catalog, or names nothing: the stored name is for runs that read none.
        if let clock = plan.clock { plan.repositoryName = clock.repositoryName }
    }

    /// Whether a long OAI-PMH list may be cut into date windows, `--concurrency` chains at once (at most the
    /// host's ceiling; `--chains` says exactly how many). The worker decides on the list's first page.
    private func planWindows(_ plan: inout RunPlan, options: HarvestOptions) {
        guard let windowed = plan.source as? any WindowedSource, options.maxPages == nil else { return }
        let chains = min(options.chains ?? min(options.concurrency, windowed.chainCeiling), 64)
        guard chains > 1 else { return }
        let (store, harvest) = (self.store, plan.harvest)
        plan.windowing = Windowing(
            chains: chains, explicit: options.chains != nil, clock: plan.clock,
            changes: plan.window.map { ChangeWindow(from: $0.from, until: harvest?.startedAt) },
            planned: plan.window == nil ? harvest?.span : nil,
            record: { span in
                // A full run's span, kept so that a run cut off part way cuts the same windows again.
                guard var harvest else { return }
                harvest.span = span
                try? store?.begin(harvest)
            })
    }

    /// Decides the run: from the store alone with `--offline`; only the changes since the last complete harvest
    /// when the source has a change feed and the store a harvest; else every page. The harvest a run left
    /// unfinished is resumed when this run would begin the same kind of harvest (and `--refresh` does not say
    /// otherwise); else its pages are dropped and a new harvest begins.
    private func basePlan(options: HarvestOptions, full: Bool) async throws(ExportError) -> RunPlan {
        guard let store else { return RunPlan(source: source, state: StoreState()) }
        let state = try store.state()
        if cacheMode == .offline {
            guard state.harvests > 0 else {
                throw ExportError(
                    .configuration(
                        "--offline makes the catalog from the collection store (\(store.location)), which holds no "
                            + "complete harvest of this collection; run once without --offline"),
                    source: source.descriptor.name)
            }
            return RunPlan(
                source: nil, fromStore: true, state: state,
                notices: [
                    "offline: the catalog was made from the collection store alone (\(store.location)), "
                        + "as harvested up to \(state.harvestedAt ?? "the last complete run")"
                ])
        }
        // A run that reads part of the collection neither resumes nor records a harvest.
        guard options.maxPages == nil else { return RunPlan(source: source, state: state) }
        let resumable = cacheMode == .use ? state.pending : nil
        var notices: [String] = []
        var clock: ServerClock?
        if !options.full, !full, state.harvests > 0, let since = state.harvestedAt,
            let incremental = source as? any IncrementalSource, incremental.listsChanges
        {
            var harvest: PendingHarvest?
            if let pending = resumable, pending.changesFrom != nil {
                harvest = pending
                notices.append(
                    "resumed the incremental harvest of changes from \(pending.changesFrom ?? since) that an earlier "
                        + "run left unfinished")
            } else if let asked = try await nightClock(incremental, options: options, notices: &notices) {
                clock = asked
                if let reason = asked.missesDeletions {
                    notices.append("harvested whole: \(reason), so a list of changes could miss a removed object")
                } else if Datestamp.seconds(since) == nil {
                    notices.append(
                        "harvested whole: the last harvest's clock (\(since)) is not a date a list of changes can be "
                            + "asked from")
                } else if let last = Datestamp.seconds(since), let now = Datestamp.seconds(asked.now), now < last {
                    // A clock put back: changes made since by its reckoning would be dated before `since`.
                    notices.append(
                        "harvested whole: the repository's clock (\(asked.now)) is behind the last harvest's "
                            + "(\(since)), so a list of changes since then would miss what changed in between")
                } else {
                    harvest = PendingHarvest(
                        id: PendingHarvest.newID(), changesFrom: asked.formatted(Datestamp.settled(since)),
                        startedAt: asked.now)
                }
            }
            if let harvest {
                if harvest != resumable { try begin(harvest, replacing: state.pending, in: store) }
                let window = ChangeWindow(from: harvest.changesFrom ?? since, until: nil)
                let changes =
                    incremental.needsStoredKeys
                    ? incremental.changes(in: window, stored: Set(try store.storedKeys(notIn: [])))
                    : incremental.changes(in: window)
                return RunPlan(
                    source: changes, harvest: harvest, resumed: harvest == resumable,
                    fromStore: true, window: window, state: state, notices: notices, clock: clock)
            }
        }
        if let pending = resumable, pending.changesFrom == nil {
            return RunPlan(source: source, harvest: pending, resumed: true, state: state, notices: notices)
        }
        let harvest = PendingHarvest(id: PendingHarvest.newID())
        try begin(harvest, replacing: state.pending, in: store)
        return RunPlan(source: source, harvest: harvest, state: state, notices: notices, clock: clock)
    }

    /// Records a new harvest, and drops the pages of the one it replaces.
    private func begin(
        _ harvest: PendingHarvest, replacing old: PendingHarvest?, in store: any CollectionStore
    ) throws(ExportError) {
        try store.begin(harvest)
        if let old { cache?.drop(harvest: old.id) }
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

    /// The server's clock for a night, or `nil` (with a notice) when its answer does not read: the night harvests
    /// whole, as the first run did, rather than fail every night. A server that cannot be reached fails the run.
    private func nightClock(
        _ incremental: any IncrementalSource, options: HarvestOptions, notices: inout [String]
    ) async throws(ExportError) -> ServerClock? {
        do {
            return try await serverClock(incremental, options: options)
        } catch {
            if case .harvest(let failure) = error.reason, failure.isTransient {
                guard case .unavailable(200..<300, _, _) = failure else { throw error }
            }
            notices.append(
                "harvested whole: the repository's Identify could not be read (\(error)), so a list of changes has "
                    + "no clock to start from")
            return nil
        }
    }

    /// The earlier of the clocks that read as datestamps: a list page's `responseDate` may be in another format,
    /// or come from a node whose clock is ahead of the one that answered `Identify`.
    private static func earliest(_ clocks: String?...) -> String? {
        clocks.compactMap { clock in clock.flatMap { text in Datestamp.seconds(text).map { (text, $0) } } }
            .min { $0.1 < $1.1 }?.0
    }

    /// Whether a datestamp is written as OAI-PMH's `from` takes it: a day, or a second in UTC.
    private static func isListArgument(_ datestamp: String) -> Bool {
        let utf8 = datestamp.utf8
        return utf8.count == 10 || (utf8.count == 20 && utf8.last == UInt8(ascii: "Z"))
    }

    /// Stores what the run read, when it read everything it meant to: the whole collection after a full run,
    /// what the changes listed after an incremental one; then drops the harvest's pages. Returns what changed.
    func keep(
        _ run: RunState, plan: RunPlan, options: HarvestOptions, notices: inout [String]
    ) throws(ExportError) -> StoreChanges? {
        guard let store else { return nil }
        // A run from the store alone publishes what runs before it stored and did not.
        guard plan.source != nil else { return plan.state.unpublished ?? StoreChanges() }
        guard let harvest = plan.harvest, options.maxPages == nil else {
            notices.append(
                "the collection store (\(store.location)) was left as it was: this run did not read the whole "
                    + "collection")
            return nil
        }
        var state = plan.state
        state.pending = nil
        state.harvests += 1
        state.repositoryName = plan.repositoryName
        let changes: StoreChanges
        if plan.window != nil {
            // The changes were listed from the server's clock when the run began: the next run asks from there.
            state.harvestedAt = harvest.startedAt ?? state.harvestedAt
        } else {
            // A windowed harvest listed everything from its span's end on, by the server's clock; else everything
            // from the first page's clock or `Identify`'s, whichever is earlier.
            state.harvestedAt = run.span?.until ?? Self.earliest(run.serverTime, plan.clock?.now)
        }
        // Records revised while the list was read: a list ordered by datestamp whose tokens are offsets moved
        // under the run, and a record may have slid past the page being read (no sign of it but this). It was
        // dated at or after the moved record's earlier datestamp: the next run asks again from there.
        if let collection = run.inStore, collection.revisedWhileListed > 0 {
            if let moved = collection.movedFrom, Self.isListArgument(moved.text) {
                // A night's list held nothing before its `from`: asked again from there, not from before it.
                let asked = plan.window?.from.flatMap(Datestamp.seconds)
                if let asked, moved.seconds <= asked {
                    state.harvestedAt = plan.state.harvestedAt
                } else if state.harvestedAt.flatMap(Datestamp.seconds).map({ moved.seconds < $0 }) ?? true {
                    state.harvestedAt = moved.text
                }
            } else {
                // No datestamp to ask from (one unreadable, or the window open before the span).
                state.harvestedAt = plan.window != nil ? plan.state.harvestedAt : nil
            }
            let revised = collection.revisedWhileListed
            notices.append(
                "\(NumberText.grouped(revised)) \(revised == 1 ? "record was" : "records were") changed while the "
                    + "repository listed them, which may have made the list skip others: the next run "
                    + (state.harvestedAt.map { "asks again for the changes since \($0)" }
                        ?? "harvests the whole collection again"))
        }
        changes = try store.commitRun(incremental: plan.window != nil, state: state)
        CrashPoint.harvestCommitted.reach()
        cache?.drop(harvest: harvest.id)
        return changes
    }
}
