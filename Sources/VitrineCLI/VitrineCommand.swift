import ArgumentParser
import Foundation
import VitrineCore
import VitrineDisplays
import VitrineScene
import VitrineSources

/// `vitrine`: harvests a museum collection and writes static catalogs.
@main
struct VitrineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitrine",
        abstract: "Harvest a museum collection page by page and write an HTML gallery, a Markdown catalog and a CSV.",
        discussion: "Run 'vitrine export' for the bundled demo collection; 'vitrine sources' lists the APIs.",
        version: VitrineVersion.current,
        subcommands: [ExportCommand.self, SourcesCommand.self, CacheCommand.self, InitCommand.self]
    )

    /// Parses the command line, an export's configuration file read in before it (`ConfigurationFile`), and runs
    /// the command.
    static func main() async {
        let given = Array(CommandLine.arguments.dropFirst())
        let folder = FileManager.default.currentDirectoryPath
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(try ConfigurationFile.arguments(given, in: folder))
        } catch {
            reportRefusal(error, given: given, in: folder)
            fail(error)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            fail(error)
        }
    }

    /// The error's message on one line.
    private static func line(for error: any Error) -> String {
        message(for: error).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Ends the process for `error`: a mistake in the command line or its file is one line, as every other error
    /// is (`vitrine: error: …`), with its status; help, the version and a status already told pass through.
    private static func fail(_ error: any Error) -> Never {
        let status = exitCode(for: error)
        guard status != .success, !(error is ExitCode) else { exit(withError: error) }
        TerminalDisplay.standardError("vitrine: error: \(line(for: error))")
        Foundation.exit(status.rawValue)
    }

    /// An export refused before it starts (a wrong flag, a mistake in the configuration file) still writes its
    /// `--summary-json`: a monitor must not read the last night's success.
    private static func reportRefusal(_ error: any Error, given: [String], in folder: String) {
        let status = exitCode(for: error).rawValue
        guard status != 0, given.first == "export", let path = ConfigurationFile.summaryPath(given, in: folder) else {
            return
        }
        // Never into the output folder, where it would replace a page.
        let output = ConfigurationFile.setting("output", given, in: folder) ?? "Output"
        guard (try? ExportScene.checkOutside(URL(fileURLWithPath: path), output: output, flag: "", advice: "")) != nil
        else { return }
        let report = RunReport(status: "failed", exitStatus: status, error: line(for: error))
        try? RunReportFile.write(report, to: path)
    }
}
