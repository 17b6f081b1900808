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
        progressInterval: Duration = .milliseconds(250)
    ) {
        self.source = source
        self.transport = transport
        self.presenter = presenter
        self.logger = logger
        self.sleeper = sleeper
        self.cache = cache
        self.cacheMode = cacheMode
        self.progressInterval = progressInterval
    }

    package func export(request: ExportRequest) async throws {
        let response = try await harvest(options: request.harvest)
        try presenter.presentCatalog(response: response)
    }

    /// Harvests the whole source into sections.
    package func harvest(options: HarvestOptions) async throws -> ExportResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let counters = HarvestCounters()
        let worker = HarvestWorker(
            source: source, transport: transport, options: options, logger: logger, sleeper: sleeper, cache: cache,
            cacheMode: cacheMode, counters: counters, onWait: { [presenter] in presenter.presentWait($0) })
        var index = SectionIndex()
        var statistics = ExportStatistics()
        var warnings: [(PageReference, RecordWarning)] = []
        var notices: [(PageReference, [String])] = []
        var restartNotices: [String] = []
        var lastReport = start

        try await worker.harvest { event in
            guard case .page(let reference, let page) = event else {
                // The worker starts over from the first page: what was read so far does not count.
                if case .restart(let notice) = event { restartNotices.append(notice) }
                (index, statistics, warnings, notices) = (SectionIndex(), ExportStatistics(), [], [])
                return
            }
            statistics.pages += 1
            if let total = page.reportedTotal, reference.index == 0 { statistics.reportedTotal = total }
            if !page.notices.isEmpty { notices.append((reference, page.notices)) }
            for (offset, record) in page.records.enumerated() {
                switch record {
                case .object(let object):
                    index.insert(object, at: SectionIndex.Place(page: reference.index, position: offset))
                case .skipped(let reason):
                    let warning = RecordWarning(
                        page: reference.cursor.description, position: offset + 1, reason: reason)
                    warnings.append((reference, warning))
                case .deleted:
                    statistics.deleted += 1
                }
            }
            let now = clock.now
            if now - lastReport >= progressInterval {
                lastReport = now
                presenter.presentProgress(
                    HarvestProgress(
                        source: source.descriptor.name, pages: statistics.pages, objects: index.objectCount,
                        reportedTotal: statistics.reportedTotal, elapsed: Self.seconds(now - start),
                        retries: counters.retries, cacheHits: counters.cacheHits))
            }
        }

        // `--offline` with a mistyped or empty `--cache` would otherwise write an empty catalog over a good one.
        if cacheMode == .offline, counters.cacheHits == 0 {
            throw ExportError(
                .configuration(
                    "--offline found nothing of this collection in the page cache at \(cache?.location ?? "(none)"); "
                        + "check --cache, or run once without --offline; nothing was written"),
                source: source.descriptor.name)
        }
        // Every record skipped (a metadata format Vitrine cannot read, say): an empty catalog would hide that.
        if index.objectCount == 0, let first = warnings.first {
            throw ExportError(
                .harvest(
                    .api(
                        "none of the \(warnings.count) records read could be used (the first: \(first.1.reason)); "
                            + "nothing was written")),
                source: source.descriptor.name)
        }
        let sections = index.sections()
        statistics.objects = index.objectCount
        statistics.sections = sections.count
        statistics.duplicates = index.duplicates
        statistics.skipped = warnings.count
        statistics.warnings = warnings.sorted { ($0.0.index, $0.1.position) < ($1.0.index, $1.1.position) }.map(\.1)
        statistics.notices = restartNotices + notices.sorted { $0.0.index < $1.0.index }.flatMap(\.1)
        statistics.requests = counters.requests
        statistics.cacheHits = counters.cacheHits
        statistics.retries = counters.retries
        let missing = counters.missing
        if !missing.isEmpty {
            let listed = missing.prefix(10).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            statistics.notices.append(
                "offline: \(missing.count) \(missing.count == 1 ? "page is" : "pages are") not in the page cache "
                    + "(\(listed)); run without --offline to fetch \(missing.count == 1 ? "it" : "them")")
        } else if let total = statistics.reportedTotal, options.maxPages == nil,
            statistics.objects + statistics.skipped + statistics.deleted < total
        {
            statistics.notices.append(
                "the API reported \(total) objects but \(statistics.objects) distinct ones were read"
            )
        }
        statistics.seconds = Self.seconds(clock.now - start)
        return ExportResponse(source: source.descriptor, sections: sections, statistics: statistics)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
