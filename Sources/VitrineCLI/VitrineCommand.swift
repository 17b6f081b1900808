import ArgumentParser
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
        subcommands: [ExportCommand.self, SourcesCommand.self, CacheCommand.self]
    )
}
