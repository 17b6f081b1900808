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

    package init(
        source: any CollectionSource,
        transport: any Transport,
        presenter: any ExportPresentationLogic,
        logger: Logger = Logger(label: "vitrine.harvest"),
        sleeper: any HarvestSleeper = TaskSleeper()
    ) {
        self.source = source
        self.transport = transport
        self.presenter = presenter
        self.logger = logger
        self.sleeper = sleeper
    }

    package func export(request: ExportRequest) async throws {
        let response = try await harvest(options: request.harvest)
        try presenter.presentCatalog(response: response)
    }

    /// Harvests the whole source into sections.
    package func harvest(options: HarvestOptions) async throws -> ExportResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let worker = HarvestWorker(
            source: source, transport: transport, options: options, logger: logger, sleeper: sleeper)
        var index = SectionIndex()
        var statistics = ExportStatistics()
        var warnings: [(PageReference, RecordWarning)] = []
        var notices: [(PageReference, [String])] = []

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
        }

        let sections = index.sections()
        statistics.objects = index.objectCount
        statistics.sections = sections.count
        statistics.duplicates = index.duplicates
        statistics.skipped = warnings.count
        statistics.warnings = warnings.sorted { ($0.0.index, $0.1.position) < ($1.0.index, $1.1.position) }.map(\.1)
        statistics.notices = notices.sorted { $0.0.index < $1.0.index }.flatMap(\.1)
        if let total = statistics.reportedTotal, options.maxPages == nil,
            statistics.objects + statistics.skipped + statistics.deleted < total
        {
            statistics.notices.append(
                "the API reported \(total) objects but \(statistics.objects) distinct ones were read"
            )
        }
        let elapsed = clock.now - start
        statistics.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return ExportResponse(source: source.descriptor, sections: sections, statistics: statistics)
    }
}
