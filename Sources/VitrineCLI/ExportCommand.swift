import ArgumentParser
import Foundation
import Logging
import VitrineCore
import VitrineDisplays
import VitrineSources

/// `vitrine export`: parse, validate, wire the scene, run it, map the result to an exit status.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Harvest a collection and write its catalogs (the bundled demo unless --source says otherwise).",
        discussion: """
            Writes Output/index.html (with assets/), Output/catalog.md and Output/collection.csv, replacing \
            the previous catalog only when the new one is complete. Ends with a summary line on stderr.
            """
    )

    @OptionGroup(title: "Source")
    var sourceOptions: SourceOptions

    @OptionGroup(title: "Harvest")
    var harvestOptions: HarvestOptionGroup

    @OptionGroup(title: "Output")
    var outputOptions: OutputOptions

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = outputOptions.verbose ? .debug : .warning
            return handler
        }
        do throws(ExportError) {
            try await export()
        } catch {
            TerminalDisplay.standardError("vitrine: error: \(error)")
            throw ExitCode.failure
        }
    }

    /// The export scene: source and transport, displays, presenter, interactor; then the request.
    private func export() async throws(ExportError) {
        var request = ExportRequest(
            harvest: HarvestOptions(
                maxPages: harvestOptions.maxPages,
                concurrency: harvestOptions.concurrency,
                retries: harvestOptions.retries,
                requestsPerSecond: harvestOptions.rate
            ),
            formats: outputOptions.format.formats,
            outputDirectory: outputOptions.output,
            templatesDirectory: outputOptions.templates,
            thumbnailWidth: outputOptions.thumbnailWidth,
            quiet: outputOptions.quiet
        )
        request.cardsPerPage = outputOptions.cardsPerPage
        let configuration = SourceConfiguration(
            source: sourceOptions.source,
            baseURL: sourceOptions.baseURL,
            key: sourceOptions.key,
            pageSize: harvestOptions.pageSize,
            language: sourceOptions.language,
            query: sourceOptions.query,
            artist: sourceOptions.artist,
            department: sourceOptions.department,
            set: sourceOptions.set,
            from: sourceOptions.from,
            until: sourceOptions.until,
            metadataPrefix: sourceOptions.metadataPrefix,
            startPage: harvestOptions.startPage
        )
        let environment = ProcessInfo.processInfo.environment
        let (source, transport) = try SourceRegistry.make(
            configuration,
            environment: environment,
            http: AsyncHTTPTransport()
        )
        let terminal = TerminalDisplay(quiet: request.quiet, isTerminal: TerminalDisplay.standardErrorIsTerminal)
        // The demo's pages are in the binary: nothing to cache.
        let cache: FilePageCache? =
            harvestOptions.noCache || sourceOptions.source == .demo
            ? nil
            : FilePageCache(
                directory: harvestOptions.cache.map { URL(fileURLWithPath: $0) }
                    ?? FilePageCache.defaultDirectory(environment: environment),
                timeToLive: harvestOptions.ttl.seconds,
                ignoresAge: harvestOptions.offline)
        if harvestOptions.offline && cache == nil {
            throw ExportError(.configuration("--offline needs a page cache; the demo has none"), source: "demo")
        }
        let cacheMode: CacheMode = harvestOptions.offline ? .offline : harvestOptions.refresh ? .refresh : .use
        let templates = try TemplateLibrary(directory: request.templatesDirectory)
        let presenter = ExportPresenter(
            thumbnailWidth: request.thumbnailWidth,
            cardsPerPage: request.cardsPerPage,
            catalogDisplay: CatalogWriter(
                outputDirectory: request.outputDirectory,
                formats: request.formats,
                templates: templates
            ),
            progressDisplay: terminal
        )
        let interactor = ExportInteractor(
            source: source, transport: transport, presenter: presenter, cache: cache, cacheMode: cacheMode)
        do {
            try await interactor.export(request: request)
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(.output(String(describing: error)), source: source.descriptor.name)
        }
    }
}
