import Logging

/// Drives the harvest and applies the domain rules: every object joins its maker's section, repeated ids are
/// kept once and counted, undecodable records are skipped with a warning, and the result does not depend on
/// the order pages arrive in.
package struct ExportInteractor: Sendable {
    package let source: any CollectionSource
    package let transport: any Transport
    package let presenter: any ExportPresentationLogic
    package let logger: Logger
    package let sleeper: any HarvestSleeper
    package let cache: (any PageCache)?
    package let cacheMode: CacheMode
    /// Where the collection is kept between runs; `nil`: every run is full and nothing is kept.
    package let store: (any CollectionStore)?
    /// How often progress is reported while pages arrive.
    package let progressInterval: Duration

    package init(
        source: any CollectionSource,
        transport: any Transport,
        presenter: any ExportPresentationLogic,
        logger: Logger = Logger(label: "vitrine.harvest"),
        sleeper: any HarvestSleeper = TaskSleeper(),
        cache: (any PageCache)? = nil,
        cacheMode: CacheMode = .use,
        store: (any CollectionStore)? = nil,
        progressInterval: Duration = .milliseconds(250)
    ) {
        self.source = source
        self.transport = transport
        self.presenter = presenter
        self.logger = logger
        self.sleeper = sleeper
        self.cache = cache
        self.cacheMode = cacheMode
        self.store = store
        self.progressInterval = progressInterval
    }

    package func export(request: ExportRequest) async throws {
        if request.selection == .openAccess, !source.descriptor.statesRights {
            throw ExportError(
                .configuration(
                    "--open-access-only shows the objects whose rights open their image for reuse, and this source "
                        + "states no rights; export without it"),
                source: source.descriptor.name)
        }
        var harvested: HarvestedCollection
        do {
            harvested = try await harvest(options: request.harvest, showing: request.selection)
        } catch {
            forgetIfNothingToResume()
            throw error
        }
        try await harvested.push(to: presenter)
        // Counted as published only once the catalog holds the stored collection.
        if harvested.statistics.changes != nil { try store?.published() }
    }

    /// After a first harvest failed before it stored any page, nothing is left to resume: its store goes.
    private func forgetIfNothingToResume() {
        guard let store, let state = try? store.state(), state.harvests == 0 else { return }
        if let pending = state.pending, let cache {
            guard cache.pages(ofHarvest: pending.id).isEmpty else { return }
            cache.drop(harvest: pending.id)
        }
        store.discardIfNeverHarvested()
    }

    /// Harvests the source into sections: every page, only the changes since the stored harvest, or nothing at
    /// all (`--offline`), as `plan` decides. A repository that refuses or ignores an incremental run's `from` is
    /// harvested in full instead. The collection handed on holds the objects `selection` shows; the store keeps all.
    package func harvest(
        options: HarvestOptions, showing selection: CatalogSelection = .all
    ) async throws -> HarvestedCollection {
        let clock = ContinuousClock()
        let start = clock.now
        var plan = try await plan(options: options)
        let counters = HarvestCounters()
        var run: RunState
        do {
            run = try await walk(plan, options: options, counters: counters, started: start)
        } catch let refused as ChangesRefused {
            // A night the repository will not list: everything instead, with a new harvest, saying why.
            if let harvest = plan.harvest { cache?.drop(harvest: harvest.id) }
            plan = try await self.plan(options: options, full: true)
            plan.notices.insert(
                "\(refused.reason); harvested the whole collection instead of the changes", at: 0)
            run = try await walk(plan, options: options, counters: counters, started: start)
        }

        // Every record skipped (a metadata format Vitrine cannot read, say): an empty catalog would hide that.
        if run.objectCount == 0, let first = run.warnings.first {
            throw ExportError(
                .harvest(
                    .api(
                        "none of the \(run.warnings.count) records read could be used (the first: \(first.1.reason)); "
                            + "nothing was written")),
                source: source.descriptor.name)
        }
        var statistics = run.statistics
        statistics.objects = run.objectCount
        statistics.duplicates = run.duplicates
        statistics.skipped = run.warnings.count
        statistics.warnings = run.warnings.sorted { ($0.0.index, $0.1.position) < ($1.0.index, $1.1.position) }
            .map(\.1)
        // A notice every page repeats (a result window the API caps) is told once.
        var told: Set<String> = []
        statistics.notices =
            (plan.notices + run.harvestNotices + run.restartNotices
            + run.notices.sorted { $0.0.index < $1.0.index }.flatMap(\.1)).filter { told.insert($0).inserted }
        if run.futureDated > 0 {
            statistics.notices.append(
                "\(NumberText.grouped(run.futureDated)) \(run.futureDated == 1 ? "record is" : "records are") dated "
                    + "after the server's own clock (its responseDate); kept, and asked for again by the next run")
        }
        statistics.requests = counters.requests
        statistics.cacheHits = counters.cacheHits
        statistics.retries = counters.retries
        statistics.run = plan.window.map(HarvestRun.incremental) ?? (plan.source == nil ? .stored : .full)
        try checkWholeList(&statistics, plan: plan, options: options)
        statistics.changes = try keep(run, plan: plan, options: options, notices: &statistics.notices)
        statistics.seconds = Self.seconds(clock.now - start)
        if let store, run.inStore != nil {
            // The run's collection is read from the store a section at a time as it is pushed.
            let stored = try store.runSections(showing: selection)
            let shown = try stored.sections()
            statistics.sections = shown.count
            try leaveOut(selection, shown: shown.reduce(0) { $0 + $1.count }, of: &statistics) {
                () throws(ExportError) in
                try store.runSections(showing: .withRights).sections().reduce(0) { $0 + $1.count }
            }
            var collection = HarvestedCollection(
                source: source.descriptor, sections: [], statistics: statistics, stored: stored)
            collection.repositoryName = plan.repositoryName
            return collection
        }
        // Last: the objects move from the index into the sections, never held twice.
        var sections = run.index.takeSections()
        if selection != .all {
            let withRights = sections.reduce(0) { $0 + $1.objects.count(where: CatalogSelection.withRights.shows) }
            sections = sections.compactMap { section in
                var section = section
                section.objects.removeAll { !selection.shows($0) }
                return section.objects.isEmpty ? nil : section
            }
            try leaveOut(selection, shown: sections.reduce(0) { $0 + $1.objects.count }, of: &statistics) {
                withRights
            }
        }
        statistics.sections = sections.count
        var collection = HarvestedCollection(source: source.descriptor, sections: sections, statistics: statistics)
        collection.repositoryName = plan.repositoryName
        return collection
    }

    /// Walks what the plan says into the run's collection (built in the store when there is one), reporting
    /// progress as pages arrive.
    private func walk(
        _ plan: RunPlan, options: HarvestOptions, counters: HarvestCounters, started start: ContinuousClock.Instant
    ) async throws -> RunState {
        let clock = ContinuousClock()
        // With a store, the run's collection is built there, starting from the stored one when the plan says.
        var run = RunState(
            inStore: try store.map { store throws(ExportError) in
                try RunCollection(store: store, fromStored: plan.fromStore)
            })
        guard let walked = plan.source else { return run }
        var lastReport = start
        let worker = HarvestWorker(
            source: walked, transport: transport, options: options, logger: logger, sleeper: sleeper,
            cache: plan.harvest.flatMap { cache?.pages(ofHarvest: $0.id) }, readsCache: plan.resumed,
            listsChanges: plan.window != nil, counters: counters,
            onWait: { [presenter] in presenter.presentWait($0) }, windowing: plan.windowing)
        let handle: (HarvestEvent) throws -> Void = { event in
            try run.receive(event)
            guard case .page = event else { return }
            let now = clock.now
            if now - lastReport >= progressInterval {
                lastReport = now
                presenter.presentProgress(
                    HarvestProgress(
                        source: source.descriptor.name, pages: run.statistics.pages,
                        objects: run.objectCount, reportedTotal: run.statistics.reportedTotal,
                        elapsed: Self.seconds(now - start), retries: counters.retries,
                        cacheHits: counters.cacheHits, windows: counters.windows))
            }
        }
        // A night of a set also lists what left the set: those records' versions come after every other.
        guard let from = plan.window?.from, let incremental = source as? any IncrementalSource,
            let leavers = incremental.leavers(since: from)
        else {
            try await worker.harvest(handle)
            return run
        }
        // The set's own listing has the last word on its members: a repository whose headers do not name their
        // sets would otherwise have every changed member "leave". Only a later version (a deletion since) wins.
        // A deletion the set's listing gave is not counted again from the leavers' list. Each record's latest
        // version decides: an old tombstone listed after a re-created record does not hide it.
        var members: [String: String?] = [:]
        try await worker.harvest { event in
            if case .page(_, let page) = event {
                for record in page.records {
                    switch record {
                    case .object(let object): members[object.recordID ?? object.id] = object.datestamp
                    case .deleted(let id?, let datestamp):
                        if let listed = members[id], Self.isLater(listed, than: datestamp) { continue }
                        members[id] = datestamp
                    default: break
                    }
                }
            }
            try handle(event)
        }
        // A repository that refuses or ignores `from` there fails the night with `ChangesRefused`: a full run follows.
        let leaving = HarvestWorker(
            source: leavers, transport: transport, options: options, logger: logger, sleeper: sleeper,
            cache: worker.cache, readsCache: plan.resumed, listsChanges: true, counters: counters,
            onWait: { [presenter] in presenter.presentWait($0) })
        // What the leavers' pages added to the counts, taken back if their list starts over (the set's stands).
        var counted = (pages: 0, gone: 0)
        try await leaving.harvest { event in
            if case .restart(let notice) = event {
                run.statistics.pages -= counted.pages
                run.statistics.goneFromSet -= counted.gone
                counted = (0, 0)
                run.restartNotices.append(notice)
                return
            }
            guard case .page(let reference, var page) = event else { return }
            page.records.removeAll { record in
                guard case .deleted(let id?, let datestamp) = record, let listed = members[id] else { return false }
                guard let left = datestamp.flatMap(Datestamp.seconds), let stamp = listed.flatMap(Datestamp.seconds)
                else { return true }
                return left <= stamp
            }
            let after = PageReference(index: Self.leaversPlace + reference.index, cursor: reference.cursor)
            let before = (run.statistics.pages, run.statistics.deleted)
            try handle(.page(after, page))
            // Only a record the catalog held has left it: the list holds every other set's changes too.
            if let store = run.inStore?.store {
                let listed = page.records.compactMap { record -> String? in
                    if case .deleted(let id?, _) = record { id } else { nil }
                }
                run.statistics.deleted -= listed.count - (try store.storedKeys(among: listed).count)
            }
            // A leaver's tombstone may be a deletion or a move out of the set: it is counted as gone from the set.
            let gone = run.statistics.deleted - before.1
            run.statistics.deleted -= gone
            run.statistics.goneFromSet += gone
            counted.pages += run.statistics.pages - before.0
            counted.gone += gone
        }
        return run
    }

    /// Counts the objects `selection` leaves out of the catalog. Open access asked of a collection none of whose
    /// objects states its rights is refused: an empty catalog would say nothing of why.
    private func leaveOut(
        _ selection: CatalogSelection, shown: Int, of statistics: inout ExportStatistics,
        withRights: () throws(ExportError) -> Int
    ) throws(ExportError) {
        guard selection != .all else { return }
        statistics.leftOut = statistics.objects - shown
        statistics.objects = shown
        if shown == 0, statistics.leftOut > 0, try withRights() == 0 {
            throw ExportError(
                .configuration(
                    "--open-access-only: none of the \(NumberText.grouped(statistics.leftOut)) objects harvested "
                        + "states its rights, so none can be shown as open for reuse; export without it"),
                source: source.descriptor.name)
        }
    }

    /// Whether datestamp `one` is later than `other` (a missing one is neither).
    private static func isLater(_ one: String?, than other: String?) -> Bool {
        guard let first = one.flatMap(Datestamp.seconds), let second = other.flatMap(Datestamp.seconds) else {
            return false
        }
        return first > second
    }

    /// Where the pages that list a set's leavers sit in a run's order: after every page of the set's own listing.
    static let leaversPlace = Int.max / 2

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
