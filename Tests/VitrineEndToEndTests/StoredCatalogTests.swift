import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

/// With its collection store, an export stages the harvest in the store and writes the catalogs a part at a time
/// from it (issue 13, item 5): past the Markdown catalog's split, in several parts, its files are those of an
/// export that holds everything in memory (`--no-cache`), and a re-run from the store alone writes them again.
@Suite struct StoredCatalogTests {
    @Test func `a catalog written from the store, part by part, is the catalog held in memory`() async throws {
        let server = try await MockMuseum.oaiPMH(OAICollection(count: 6_200, pageSize: 200))
        defer { Task { await server.stop() } }
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        let store = try TemporaryFolder()
        let cache = try TemporaryFolder()
        let pages = FilePageCache(directory: cache.url)

        let stored = try await ExportHarness.run(configuration, cache: pages, store: store)
        let held = try await ExportHarness.run(configuration)
        #expect(stored.summary.summary.contains("full run (0 changed, 0 deleted, 5,637 new)"))
        let files = try CatalogChecks.files(in: stored.folder.url)
        #expect(files.keys.contains { $0.hasPrefix("/catalog/") }, "the Markdown catalog is split: several parts")
        try CatalogChecks.expectIdenticalFolders(stored.folder, held.folder)

        // From the store alone (the page cache emptied), with no request, the same files again.
        try FileManager.default.removeItem(at: cache.url)
        await server.resetLog()
        let offline = try await ExportHarness.run(configuration, cache: pages, cacheMode: .offline, store: store)
        #expect(await server.requests().isEmpty)
        try CatalogChecks.expectIdenticalFolders(offline.folder, held.folder)
    }
}
