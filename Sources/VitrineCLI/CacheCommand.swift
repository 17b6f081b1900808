import ArgumentParser
import Foundation
import VitrineCore
import VitrineSources

/// `vitrine cache`: where the page cache is, what it holds, and clearing it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show what the page cache and the collection stores hold, or remove them.",
        discussion: """
            The page cache holds the pages of harvests under way, so that a run cut off part way resumes; a harvest's \
            pages go when it completes. Without options, prints the cache folder, the harvests under way, their \
            pages and size, and the collection stores. --prune AGE removes harvests under way that stored nothing \
            for AGE (90s, 30m, 24h, 7d); --clear removes every harvest under way and every collection store (the \
            next export of each collection is a full one). Nothing else in the folder is touched.
            """
    )

    @Option(
        help: ArgumentHelp(
            "Folder of the page cache (default: $XDG_CACHE_HOME/vitrine or ~/.cache/vitrine).", valueName: "dir"))
    var cache: String?

    @Option(
        help: ArgumentHelp(
            "Remove harvests under way that stored no page for this long: 90s, 30m, 24h, 7d.", valueName: "age"))
    var prune: TimeToLive?

    @Flag(help: "Remove every harvest under way and every collection store.")
    var clear = false

    func validate() throws {
        if prune != nil && clear { throw ValidationError("--prune and --clear do not go together.") }
    }

    func run() throws {
        let folder =
            cache.map { URL(fileURLWithPath: $0) }
            ?? FilePageCache.defaultDirectory(environment: ProcessInfo.processInfo.environment)
        let pageCache = FilePageCache(directory: folder)
        if clear || prune != nil {
            let removed = pageCache.remove(olderThan: clear ? 0 : prune?.seconds ?? 0, stores: clear)
            var said = [
                "\(NumberText.grouped(removed.harvests)) \(removed.harvests == 1 ? "harvest" : "harvests") under way "
                    + "(\(NumberText.grouped(removed.pages)) \(removed.pages == 1 ? "page" : "pages"))"
            ]
            if clear { said.append("\(removed.stores) collection \(removed.stores == 1 ? "store" : "stores")") }
            print("removed \(said.joined(separator: " and ")) from \(folder.path)")
            for busy in removed.busyStores {
                print("kept the collection store \(busy): an export is using it")
            }
        }
        let usage = pageCache.usage()
        print("page cache: \(folder.path)")
        print(
            "  \(usage.harvests) \(usage.harvests == 1 ? "harvest" : "harvests") under way, "
                + "\(NumberText.grouped(usage.pages)) \(usage.pages == 1 ? "page" : "pages"), \(Self.megabytes(usage.bytes))"
        )
        if let oldest = usage.oldest, let newest = usage.newest {
            let format = ISO8601DateFormatter()
            print("  last stored a page: oldest \(format.string(from: oldest)), newest \(format.string(from: newest))")
        }
        let stores = folder.appendingPathComponent("stores")
        print(
            "collection stores: \(stores.path)\n  \(usage.stores.count) \(usage.stores.count == 1 ? "store" : "stores"), "
                + "\(Self.megabytes(usage.storeBytes))"
                + "\(usage.stores.isEmpty ? "" : ": " + usage.stores.joined(separator: ", "))")
    }

    private static func megabytes(_ bytes: Int) -> String {
        "\((Double(bytes) / 1_048_576 * 10).rounded() / 10) MB"
    }
}
