import ArgumentParser
import Foundation
import VitrineCore
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
        do {
            let arguments = try ConfigurationFile.arguments(
                Array(CommandLine.arguments.dropFirst()), in: FileManager.default.currentDirectoryPath)
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
