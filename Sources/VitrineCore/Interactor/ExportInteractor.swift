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

    /// Harvests the whole source into sections. A chain resumed from the cache whose token the server has
    /// forgotten is harvested again from its first page, fetching everything.
    package func harvest(options: HarvestOptions) async throws -> ExportResponse {
        do {
            return try await harvest(options: options, mode: cacheMode)
        } catch let error as ExportError {
            guard case .harvest(.expiredResumption) = error.reason, cache != nil, cacheMode == .use else { throw error }
            logger.warning("the server no longer knows a stored resumption token; harvesting again from the start")
            var response = try await harvest(options: options, mode: .refresh)
            response.statistics.notices.insert(
                "the stored resumption token had expired: the harvest started over from the first page", at: 0)
            return response
        }
    }

    private func harvest(options: HarvestOptions, mode: CacheMode) async throws -> ExportResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let counters = HarvestCounters()
        let worker = HarvestWorker(
            source: source, transport: transport, options: options, logger: logger, sleeper: sleeper, cache: cache,
            cacheMode: mode, counters: counters)
        var index = SectionIndex()
        var statistics = ExportStatistics()
        var warnings: [(PageReference, RecordWarning)] = []
        var notices: [(PageReference, [String])] = []
        var lastReport = start

        try await worker.harvest { reference, page in
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

        let sections = index.sections()
        statistics.objects = index.objectCount
        statistics.sections = sections.count
        statistics.duplicates = index.duplicates
        statistics.skipped = warnings.count
        statistics.warnings = warnings.sorted { ($0.0.index, $0.1.position) < ($1.0.index, $1.1.position) }.map(\.1)
        statistics.notices = notices.sorted { $0.0.index < $1.0.index }.flatMap(\.1)
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
