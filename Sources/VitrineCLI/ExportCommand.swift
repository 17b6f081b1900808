import ArgumentParser
import CAllocatorTuning
import Foundation
import Logging
import VitrineCore
import VitrineDisplays
import VitrineHTTP
import VitrineScene
import VitrineSources

/// `vitrine export`: parse, validate, wire the scene, run it, map the result to an exit status.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Harvest a collection and write its catalogs (the bundled demo unless --source says otherwise).",
        discussion: """
            Writes Output/index.html (with assets/), Output/catalog.md and Output/collection.csv (and, with \
            --format jsonl, Output/collection.jsonl), replacing \
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
        // First, before the export's threads allocate: this bounds a large export's peak memory, as glibc's
        // defaults keep much of what the export frees (see `vitrine_tune_allocator`).
        _ = vitrine_tune_allocator(Int32(ProcessInfo.processInfo.activeProcessorCount))
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = outputOptions.verbose ? .debug : .warning
            return handler
        }
        if harvestOptions.ttl != nil, !quiet {
            TerminalDisplay.standardError(
                "vitrine: note: --ttl no longer does anything: the page cache keeps only the pages of a harvest under "
                    + "way, to resume it, and drops them when it completes")
        }
        let terminal = TerminalDisplay(
            quiet: quiet, isTerminal: TerminalDisplay.standardErrorIsTerminal)
        let report = outputOptions.summaryJSON.map { RunReportFile(path: $0, terminal: terminal) }
        do throws(ExportError) {
            if let report {
                try ExportScene.checkOutside(
                    URL(fileURLWithPath: report.path), output: outputOptions.output, flag: "--summary-json",
                    advice: "write the report beside it")
                // A folder that is not there is a mistake in the command, not a failed run.
                let folder = URL(fileURLWithPath: report.path).deletingLastPathComponent()
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue
                else {
                    throw ExportError(
                        .configuration(
                            "--summary-json \(report.path): there is no folder \(folder.path); make it, or name a "
                                + "file in a folder that is there"))
                }
            }
            try report?.start()
        } catch {
            TerminalDisplay.standardError("vitrine: error: \(error)")
            throw ExitCode(error.exitStatus)
        }
        let interruption = Interruption.watch(report: report?.path)
        defer { interruption.cancel() }
        do throws(ExportError) {
            try await export(progress: report ?? terminal)
            try report?.finish(error: nil)
        } catch {
            TerminalDisplay.standardError("vitrine: error: \(error)")
            // The report's own failure is the line above when it was the error; else the file was writable at
            // the start, and the run's error is what matters.
            try? report?.finish(error: error)
            throw ExitCode(error.exitStatus)
        }
    }

    /// `--verbose` wins over `--quiet`: a nightly job's file says quiet, and its command line asks for detail.
    private var quiet: Bool { outputOptions.quiet && !outputOptions.verbose }

    /// The settings the flags make; `ExportScene` wires and runs the rest.
    private func export(progress: any ProgressDisplayLogic) async throws(ExportError) {
        let settings = ExportSettings(
            source: SourceConfiguration(
                source: sourceOptions.source,
                baseURL: sourceOptions.baseURL,
                key: sourceOptions.key,
                pageSize: harvestOptions.pageSize,
                language: sourceOptions.canonicalLanguage,
                query: sourceOptions.query,
                artist: sourceOptions.artist,
                department: sourceOptions.department,
                set: sourceOptions.set,
                from: sourceOptions.from,
                until: sourceOptions.until,
                metadataPrefix: sourceOptions.metadataPrefix,
                startPage: harvestOptions.startPage
            ),
            harvest: HarvestOptions(
                maxPages: harvestOptions.maxPages,
                concurrency: harvestOptions.concurrency,
                retries: harvestOptions.retries,
                requestsPerSecond: harvestOptions.rate,
                full: harvestOptions.full,
                chains: harvestOptions.chains
            ),
            formats: outputOptions.format.formats,
            outputDirectory: outputOptions.output,
            templatesDirectory: outputOptions.templates,
            thumbnailWidth: outputOptions.thumbnailWidth,
            cardsPerPage: outputOptions.cardsPerPage,
            quiet: quiet,
            cache: harvestOptions.noCache
                ? .none
                : .files(
                    directory: harvestOptions.cache,
                    mode: harvestOptions.offline ? .offline : harvestOptions.refresh ? .refresh : .use),
            timeouts: HTTPTimeouts(
                connect: harvestOptions.connectTimeout, read: harvestOptions.readTimeout,
                request: harvestOptions.requestTimeout),
            force: outputOptions.force
        )
        var chosen = settings
        chosen.removeOtherFormats = outputOptions.removeOtherFormats
        chosen.openAccessOnly = outputOptions.openAccessOnly
        chosen.site = SiteIdentity(
            title: outputOptions.siteTitle, description: outputOptions.siteDescription, url: outputOptions.siteURL,
            logo: outputOptions.siteLogo.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        try await ExportScene(chosen, environment: ExportScene.Environment(progressDisplay: progress)).run()
    }
}
