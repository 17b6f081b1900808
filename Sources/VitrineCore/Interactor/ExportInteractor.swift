import Logging

/// Drives the harvest and applies the domain rules: every object joins its maker's section, repeated ids are
/// kept once and counted, undecodable records are skipped with a warning, and the result does not depend on
/// the order pages arrive in.
package struct ExportInteractor: ExportBusinessLogic {
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
        let response = try await harvest(options: request.harvest)
        try presenter.presentCatalog(response: consume response)
    }

    /// Harvests the source into sections: every page, only the changes since the stored harvest, or nothing at
    /// all (`--offline` with a stored collection), as `plan` decides.
    package func harvest(options: HarvestOptions) async throws -> ExportResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let plan = try await plan(options: options)
        let counters = HarvestCounters()
        // With a store, the run's collection is staged there, starting from the stored one when the plan says.
        var run = RunState(
            staged: try store.map { store throws(ExportError) in
                try StagedCollection(store: store, fromStored: plan.fromStore)
            })
        var lastReport = start

        if let walked = plan.source {
            let worker = HarvestWorker(
                source: walked, transport: transport, options: options, logger: logger, sleeper: sleeper,
                cache: cache, cacheMode: plan.cacheMode, counters: counters,
                onWait: { [presenter] in presenter.presentWait($0) }, windowing: plan.windowing)
            let handle: (HarvestEvent) throws -> Void = { event in
                try run.receive(event, incremental: plan.window != nil)
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
            try await worker.harvest(handle)
        }

        // `--offline` with a mistyped or empty `--cache` would otherwise write an empty catalog over a good one.
        if plan.source != nil, plan.cacheMode == .offline, counters.cacheHits == 0 {
            throw ExportError(
                .configuration(
                    "--offline found nothing of this collection in the page cache at \(cache?.location ?? "(none)"); "
                        + "check --cache, or run once without --offline; nothing was written"),
                source: source.descriptor.name)
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
        statistics.notices =
            plan.notices + run.harvestNotices + run.restartNotices
            + run.notices.sorted { $0.0.index < $1.0.index }.flatMap(\.1)
        statistics.requests = counters.requests
        statistics.cacheHits = counters.cacheHits
        statistics.retries = counters.retries
        statistics.run = plan.window.map(HarvestRun.incremental) ?? (plan.source == nil ? .stored : .full)
        let missing = counters.missing
        if !missing.isEmpty {
            let listed = missing.prefix(10).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            statistics.notices.append(
                "offline: \(missing.count) \(missing.count == 1 ? "page is" : "pages are") not in the page cache "
                    + "(\(listed)); run without --offline to fetch \(missing.count == 1 ? "it" : "them")")
        } else if plan.window == nil, plan.source != nil, let total = statistics.reportedTotal,
            options.maxPages == nil, statistics.objects + statistics.skipped + statistics.deleted < total
        {
            statistics.notices.append(
                "the API reported \(total) objects but \(statistics.objects) distinct ones were read"
            )
        }
        statistics.changes = try keep(
            run, plan: plan, options: options, complete: missing.isEmpty, notices: &statistics.notices)
        statistics.seconds = Self.seconds(clock.now - start)
        if let store, run.staged != nil {
            // The Presenter reads the run's collection from the store, a section at a time.
            let stored = try store.runSections()
            statistics.sections = try stored.sections().count
            return ExportResponse(
                source: source.descriptor, sections: [], statistics: statistics, storedSections: stored)
        }
        // Last: the objects move from the index into the sections, never held twice.
        let sections = run.index.takeSections()
        statistics.sections = sections.count
        return ExportResponse(source: source.descriptor, sections: sections, statistics: statistics)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
