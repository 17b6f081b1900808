import ArgumentParser
import Foundation
import VitrineCore
import VitrineSources

/// `vitrine cache`: where the page cache is, what it holds, and pruning it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show what the page cache holds, or prune it.",
        discussion: """
            Without options, prints the cache folder, its entries, their size and the oldest and newest. \
            --prune AGE removes entries stored longer ago than AGE (90s, 30m, 24h, 7d); --clear removes them all.
            """
    )

    @Option(
        help: ArgumentHelp(
            "Folder of the page cache (default: $XDG_CACHE_HOME/vitrine or ~/.cache/vitrine).", valueName: "dir"))
    var cache: String?

    @Option(help: ArgumentHelp("Remove entries stored longer ago than this: 90s, 30m, 24h, 7d.", valueName: "age"))
    var prune: TimeToLive?

    @Flag(help: "Remove every entry.")
    var clear = false

    func validate() throws {
        if prune != nil && clear { throw ValidationError("--prune and --clear do not go together.") }
    }

    func run() throws {
        let folder =
            cache.map { URL(fileURLWithPath: $0) }
            ?? FilePageCache.defaultDirectory(environment: ProcessInfo.processInfo.environment)
        let pageCache = FilePageCache(directory: folder, timeToLive: 0)
        if clear || prune != nil {
            let removed = pageCache.prune(olderThan: clear ? 0 : prune?.seconds ?? 0)
            print("removed \(NumberText.grouped(removed)) \(removed == 1 ? "entry" : "entries") from \(folder.path)")
        }
        let usage = pageCache.usage()
        print("page cache: \(folder.path)")
        let megabytes = (Double(usage.bytes) / 1_048_576 * 10).rounded() / 10
        print("  \(NumberText.grouped(usage.entries)) \(usage.entries == 1 ? "entry" : "entries"), \(megabytes) MB")
        if let oldest = usage.oldest, let newest = usage.newest {
            let format = ISO8601DateFormatter()
            print("  oldest \(format.string(from: oldest)), newest \(format.string(from: newest))")
        }
        // The collection stores live beside the pages; pruning pages never touches them.
        let stores = folder.appendingPathComponent("stores")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: stores.path)) ?? []
        let databases = files.filter { $0.hasSuffix(".sqlite") }.sorted()
        let bytes = files.filter { !$0.hasSuffix(".lock") }.reduce(0) { total, name in
            let size = try? FileManager.default.attributesOfItem(atPath: stores.appendingPathComponent(name).path)[
                .size]
            return total + ((size as? Int) ?? 0)
        }
        let storeMegabytes = (Double(bytes) / 1_048_576 * 10).rounded() / 10
        print(
            "collection stores: \(stores.path)\n  \(databases.count) \(databases.count == 1 ? "store" : "stores"), "
                + "\(storeMegabytes) MB\(databases.isEmpty ? "" : ": " + databases.joined(separator: ", "))")
    }
}
