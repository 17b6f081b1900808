import Foundation
import Testing
import VitrineFiles
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

/// A cache that cannot be written is said so before a harvest starts; the cache can be measured and cleared, and
/// clearing touches only Vitrine's own layout (issue 12, item 14; issue 34, item 12).
@Suite struct PageCacheMaintenanceTests {
    @Test func `a --cache that is a file fails at once, naming it and what to do`() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        let cache = FilePageCache(directory: file)
        let error = #expect(throws: ExportError.self) { try cache.checkWritable() }
        #expect(error?.description.hasPrefix("the page cache at \(file.path) cannot be written (") == true)
        #expect(error?.description.hasSuffix("choose another --cache, or --no-cache") == true)
        try FilePageCache(directory: folder.url.appendingPathComponent("fresh")).checkWritable()
    }

    /// Found by a hostile check: a cached page cut short but still well-formed (half its records gone) was
    /// trusted when a harvest resumed, and the records it lost stayed lost. An entry whose body is not the length
    /// stored with it is a miss.
    @Test func `a cached page whose body is not its stored length is a miss, read or asked for`() throws {
        let folder = try TemporaryFolder()
        let harvest = PendingHarvest.newID()
        let cache = FilePageCache(directory: folder.url)
        let pages = cache.pages(ofHarvest: harvest)
        let harvestFolder = cache.harvests.appendingPathComponent(harvest).path
        let key = "https://api.example/oai?verb=ListRecords&resumptionToken=A"
        let body = Data("<OAI-PMH><record/><record/></OAI-PMH>".utf8)
        pages.store(SourceResponse(status: 200, body: body), for: key)
        #expect(pages.response(for: key)?.body == body)
        #expect(pages.contains(key) && !pages.contains(key + "B"))
        let file = try #require(
            FileManager.default.enumerator(atPath: harvestFolder)?.compactMap { $0 as? String }
                .first { $0.hasSuffix(".page") })
        let path = harvestFolder + "/" + file
        let entry = try Data(contentsOf: URL(fileURLWithPath: path))
        for edited in [entry.dropLast(19) + Data("</OAI-PMH>".utf8), entry + Data("<record/>".utf8)] {
            try Data(edited).write(to: URL(fileURLWithPath: path))
            #expect(pages.response(for: key) == nil)
            // A resumed chain asks whether its next page is stored by the same rules.
            #expect(!pages.contains(key))
        }
    }

    /// Pages of two harvests under way; one stored nothing for eight days.
    private static func twoHarvests(in folder: TemporaryFolder) throws -> (FilePageCache, old: String, new: String) {
        let cache = FilePageCache(directory: folder.url)
        let (old, new) = (PendingHarvest.newID(), PendingHarvest.newID())
        for (harvest, pages) in [(old, 1), (new, 2)] {
            for page in 1...pages {
                cache.pages(ofHarvest: harvest).store(
                    SourceResponse(status: 200, body: Data(repeating: 65, count: 1_000)),
                    for: "https://api.example/p?page=\(page)")
            }
        }
        let aged = Date().addingTimeInterval(-8 * 86_400)
        let oldFolder = cache.harvests.appendingPathComponent(old)
        for path in try FileManager.default.subpathsOfDirectory(atPath: oldFolder.path) + [""] {
            try FileManager.default.setAttributes(
                [.modificationDate: aged], ofItemAtPath: oldFolder.appendingPathComponent(path).path)
        }
        return (cache, old, new)
    }

    @Test func `the cache says what it holds, and prunes harvests under way by age`() throws {
        let folder = try TemporaryFolder()
        let (cache, old, new) = try Self.twoHarvests(in: folder)
        let usage = cache.usage()
        #expect(usage.harvests == 2 && usage.pages == 3)
        #expect(usage.bytes > 3_000)
        let pruned = cache.remove(olderThan: 7 * 86_400)
        #expect(pruned.harvests == 1 && pruned.pages == 1)
        #expect(!FileManager.default.fileExists(atPath: cache.harvests.appendingPathComponent(old).path))
        #expect(cache.pages(ofHarvest: new).response(for: "https://api.example/p?page=2") != nil)
        #expect(cache.remove(olderThan: 0).harvests == 1)
        #expect(cache.usage() == FilePageCache.Usage())
    }

    /// Issue 34, item 12: `--clear` and `--prune` deleted every `*.page` file at any depth under `--cache`, and kept
    /// the collection stores.
    @Test func `clearing removes Vitrine's harvests, old-layout pages and stores, and nothing of the user's`() throws {
        let folder = try TemporaryFolder()
        let (cache, _, _) = try Self.twoHarvests(in: folder)
        let manager = FileManager.default
        // The user's own files, some named like pages, at every depth; a page of the older layout; two stores.
        let mine = ["notes/draft.page", "ab/readme.page", "harvests/mine.page", "harvests/not-an-id/x.page", "x.page"]
        for path in mine {
            try manager.createDirectory(
                at: folder.url.appendingPathComponent(path).deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: folder.url.appendingPathComponent(path))
        }
        let legacy = "0a/" + String(repeating: "0a", count: 16) + ".page"
        try manager.createDirectory(at: folder.url.appendingPathComponent("0a"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: folder.url.appendingPathComponent(legacy))
        let stores = folder.url.appendingPathComponent("stores")
        try manager.createDirectory(at: stores, withIntermediateDirectories: true)
        for name in ["oai-0123456789abcdef.sqlite", "oai-0123456789abcdef.sqlite-wal", "mine.sqlite"] {
            try Data("db".utf8).write(to: stores.appendingPathComponent(name))
        }
        // A store an export is using is left alone.
        let busy = stores.appendingPathComponent("met-fedcba9876543210.sqlite")
        try Data("db".utf8).write(to: busy)
        guard case .held(let lock) = FileLock.take(busy.path + ".lock") else {
            Issue.record("the lock could not be taken")
            return
        }
        defer { close(lock) }

        #expect(cache.usage().stores == ["met-fedcba9876543210.sqlite", "oai-0123456789abcdef.sqlite"])
        let removed = cache.remove(olderThan: 0, stores: true)
        #expect(removed.harvests == 2 && removed.pages == 4 && removed.stores == 1)
        #expect(removed.busyStores == ["met-fedcba9876543210.sqlite"])
        for path in mine + ["stores/mine.sqlite", "stores/met-fedcba9876543210.sqlite"] {
            #expect(manager.fileExists(atPath: folder.url.appendingPathComponent(path).path), "\(path)")
        }
        for path in [legacy, "stores/oai-0123456789abcdef.sqlite", "stores/oai-0123456789abcdef.sqlite-wal"] {
            #expect(!manager.fileExists(atPath: folder.url.appendingPathComponent(path).path), "\(path)")
        }
    }
}
