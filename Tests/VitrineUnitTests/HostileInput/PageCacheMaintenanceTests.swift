import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

/// A cache that cannot be written is said so before a harvest starts, and the cache can be measured and pruned
/// (issue 12, item 14).
@Suite struct PageCacheMaintenanceTests {
    @Test func `a --cache that is a file fails at once, naming it and what to do`() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        let cache = FilePageCache(directory: file, timeToLive: 60)
        let error = #expect(throws: ExportError.self) { try cache.checkWritable() }
        #expect(error?.description.hasPrefix("the page cache at \(file.path) cannot be written (") == true)
        #expect(error?.description.hasSuffix("choose another --cache, or --no-cache") == true)
        try FilePageCache(directory: folder.url.appendingPathComponent("fresh"), timeToLive: 60).checkWritable()
    }

    @Test func `the cache says what it holds, and prunes by age or entirely`() throws {
        let folder = try TemporaryFolder()
        let cache = FilePageCache(directory: folder.url, timeToLive: 60)
        for page in 1...3 {
            cache.store(
                SourceResponse(status: 200, body: Data(repeating: 65, count: 1_000)),
                for: SourceRequest(url: url("https://api.example/p?page=\(page)")))
        }
        let old = cache.file(for: SourceRequest(url: url("https://api.example/p?page=1")))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-8 * 86_400)], ofItemAtPath: old.path)
        let usage = cache.usage()
        #expect(usage.entries == 3)
        #expect(usage.bytes > 3_000)
        #expect(cache.prune(olderThan: 7 * 86_400) == 1)
        #expect(cache.usage().entries == 2)
        #expect(cache.prune(olderThan: 0) == 2)
        #expect(cache.usage() == FilePageCache.Usage())
    }
}
