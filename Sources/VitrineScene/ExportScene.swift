import Foundation
import Logging
import VitrineCore
import VitrineDisplays
import VitrineHTTP
import VitrineOutput
import VitrineSources
import VitrineStore

/// The configurator: builds the export scene (source and transport, page cache, displays, presenter,
/// interactor) from one `ExportSettings`, the same way for the command line, the tests and the benchmark.
package struct ExportScene: Sendable {
    /// What the scene reaches outside itself: the environment's keys, the network, the clock's pauses, the
    /// terminal. Tests and the benchmark replace what they need.
    package struct Environment: Sendable {
        package var variables: [String: String]
        /// The network; AsyncHTTPClient with the settings' timeouts when `nil`.
        package var http: (any Transport)?
        package var registry: SourceRegistry
        package var sleeper: any HarvestSleeper
        package var logger: Logger
        /// Progress and the summary; a `TerminalDisplay` on standard error when `nil`.
        package var progressDisplay: (any ProgressDisplayLogic)?

        package init(
            variables: [String: String] = ProcessInfo.processInfo.environment,
            http: (any Transport)? = nil,
            registry: SourceRegistry = .standard,
            sleeper: any HarvestSleeper = TaskSleeper(),
            logger: Logger = Logger(label: "vitrine.harvest"),
            progressDisplay: (any ProgressDisplayLogic)? = nil
        ) {
            self.variables = variables
            self.http = http
            self.registry = registry
            self.sleeper = sleeper
            self.logger = logger
            self.progressDisplay = progressDisplay
        }
    }

    package let source: any CollectionSource
    package let interactor: ExportInteractor
    package let request: ExportRequest
    /// The displays' writer, which the Presenter hands the catalog: `run` has it open the output folder first.
    private let catalogWriter: CatalogWriter

    /// Wires the scene. Fails, naming the flag, when the settings do not make an export.
    package init(_ settings: ExportSettings, environment: Environment = Environment()) throws(ExportError) {
        let (source, transport) = try environment.registry.make(
            settings.source,
            environment: SourceEnvironment(
                variables: environment.variables,
                http: environment.http ?? AsyncHTTPTransport(timeouts: settings.timeouts)))
        if !source.descriptor.isBundled, case .files(let directory, _) = settings.cache {
            try Self.checkOutside(
                directory.map { URL(fileURLWithPath: $0) }
                    ?? FilePageCache.defaultDirectory(environment: environment.variables),
                output: settings.outputDirectory, flag: "--cache",
                advice: "keep the cache outside it (the default, ~/.cache/vitrine, is)")
        }
        let (cache, cacheMode) = try Self.pageCache(settings.cache, for: source, variables: environment.variables)
        let store = try Self.collectionStore(
            settings, for: source, variables: environment.variables, startOver: settings.harvest.full)
        let templates = try TemplateLibrary(directory: settings.templatesDirectory)
        let progressDisplay =
            environment.progressDisplay
            ?? TerminalDisplay(quiet: settings.quiet, isTerminal: TerminalDisplay.standardErrorIsTerminal)
        templates.warnings.forEach(progressDisplay.displayWarning)
        let catalogWriter = CatalogWriter(
            outputDirectory: settings.outputDirectory,
            formats: settings.formats,
            templates: templates,
            cardsPerPage: settings.cardsPerPage,
            force: settings.force,
            removeOtherFormats: settings.removeOtherFormats,
            spareFrom: settings.spareFrom,
            bundledFile: { [source] in source.bundledFile(at: $0) }
        )
        let presenter = ExportPresenter(
            thumbnailWidth: settings.thumbnailWidth, catalogDisplay: catalogWriter, progressDisplay: progressDisplay,
            site: settings.site)
        self.catalogWriter = catalogWriter
        self.source = source
        self.interactor = ExportInteractor(
            source: source, transport: transport, presenter: presenter, logger: environment.logger,
            sleeper: environment.sleeper, cache: cache, cacheMode: cacheMode, store: store)
        self.request = ExportRequest(
            harvest: settings.harvest, selection: settings.openAccessOnly ? .openAccess : .all)
    }

    /// Runs the export: harvest, present, display. Every failure leaves as one `ExportError`. The output folder is
    /// opened first (see `CatalogWriter.openOutputFolder`).
    package func run() async throws(ExportError) {
        try catalogWriter.openOutputFolder()
        do {
            try await interactor.export(request: request)
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(.output(String(describing: error)), source: source.descriptor.name)
        }
    }

    /// Refuses a page cache or a run's report in the output folder: everything in the output folder is
    /// published, each export swaps the folder whole, and a report there would overwrite a page.
    package static func checkOutside(
        _ folder: URL, output: String, flag: String, advice: String
    ) throws(ExportError) {
        // A folder not made yet is placed by the nearest one that is, links resolved (`site/link/cache`).
        func resolved(_ url: URL) -> String {
            var existing = url.absoluteURL.standardized
            var rest: [String] = []
            while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
                rest.insert(existing.lastPathComponent, at: 0)
                existing.deleteLastPathComponent()
            }
            let path = rest.reduce(existing.resolvingSymlinksInPath()) { $0.appendingPathComponent($1) }.path
            return path.hasSuffix("/") ? path : path + "/"
        }
        let inner = resolved(folder)
        let outer = resolved(URL(fileURLWithPath: output))
        guard inner.hasPrefix(outer) else { return }
        throw ExportError(
            .configuration(
                "\(flag) \(folder.path) is inside the output folder \(output), which is published and replaced "
                    + "whole by each export: \(advice)"))
    }

    /// The collection store the settings ask for: one SQLite file per collection. A bundled source (the demo)
    /// has none.
    private static func collectionStore(
        _ settings: ExportSettings, for source: any CollectionSource, variables: [String: String], startOver: Bool
    ) throws(ExportError) -> (any CollectionStore)? {
        guard !source.descriptor.isBundled else { return nil }
        let folder: URL
        switch (settings.store, settings.cache) {
        case (.none, _), (.besideCache, .none), (.besideCache, .custom):
            return nil
        case (.directory(let directory), _):
            folder = URL(fileURLWithPath: directory)
        case (.besideCache, .files(let directory, _)):
            folder =
                directory.map { URL(fileURLWithPath: $0) } ?? FilePageCache.defaultDirectory(environment: variables)
        }
        let collection = source.collectionIdentity
        if case .files(_, .offline) = settings.cache,
            !SQLiteCollectionStore.exists(directory: folder, source: source.descriptor.name, collection: collection)
        {
            throw ExportError(
                .configuration(
                    "--offline makes the catalog from the collection store, and \(folder.path) holds none of this "
                        + "collection; run once without --offline"),
                source: source.descriptor.name)
        }
        do {
            return try SQLiteCollectionStore(
                directory: folder, source: source.descriptor.name, collection: collection, startOver: startOver)
        } catch {
            throw ExportError(error.reason, source: source.descriptor.name)
        }
    }

    /// The page cache the setting asks for. A bundled source (the demo) has nothing to cache.
    private static func pageCache(
        _ setting: PageCacheSetting, for source: any CollectionSource, variables: [String: String]
    ) throws(ExportError) -> (cache: (any PageCache)?, mode: CacheMode) {
        let bundled = source.descriptor.isBundled
        switch setting {
        case .none:
            return (nil, .use)
        case .custom(let cache, let mode):
            return (cache, mode)
        case .files(let directory, let mode):
            if bundled {
                guard mode != .offline else {
                    throw ExportError(
                        .configuration("--offline makes the catalog from a collection store; the demo has none"),
                        source: source.descriptor.name)
                }
                return (nil, .use)
            }
            let folder =
                directory.map { URL(fileURLWithPath: $0) } ?? FilePageCache.defaultDirectory(environment: variables)
            let cache = FilePageCache(directory: folder)
            if mode != .offline { try cache.checkWritable() }
            return (cache, mode)
        }
    }
}
