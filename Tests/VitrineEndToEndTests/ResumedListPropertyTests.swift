import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

/// A numbered listing (the Art Institute's) cut off at a random request, at any concurrency, while the listing
/// may move (records deleted at its top) and the resume may be cut off again, then run to its end, equals a fresh
/// export of the listing then. Seeds as in `NightsPropertyTests` (`VITRINE_SEEDS`, `VITRINE_SEED`).
@Suite struct ResumedListPropertyTests {
    @Test func `a listing cut off and resumed, however often and while it moves, equals a fresh export`()
        async throws
    {
        for seed in NightsPropertyTests.seeds {
            try await resumed(seed: seed &+ 30_000)
        }
    }

    private func resumed(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        var collection = ArtInstituteCollection(count: Int.random(in: 60...400, using: &random), movingRecord: false)
        collection.deletedAtTop = Int.random(in: 0...8, using: &random)
        let pageSize = Int.random(in: 10...60, using: &random)
        let pages = (collection.count + pageSize - 1) / pageSize
        let museum = try await MockMuseum.artInstitute(collection)
        defer { Task { await museum.stop() } }
        let configuration = SourceConfiguration(source: .aic, baseURL: museum.artInstituteBaseURL, pageSize: pageSize)
        let cache = FilePageCache(directory: try TemporaryFolder().url)
        // One cut, or two with the listing moved before the second; each run at its own concurrency.
        var generation = 0
        var story: [String] = []
        for cut in 0..<Int.random(in: 1...2, using: &random) {
            if cut > 0 || Bool.random(using: &random) { generation += 1 }
            let outage = Int.random(in: 1...max(1, pages - 1), using: &random)
            let concurrency = Int.random(in: 1...4, using: &random)
            var faults = MockFaults(outageAfter: outage, outageStatus: 404)
            faults.museumGeneration = generation
            await museum.setFaults(faults)
            await museum.resetLog()  // the outage counts the requests logged
            let run = try? await ExportHarness.run(configuration, concurrency: concurrency, cache: cache, retries: 0)
            story.append("generation \(generation), cut after \(outage) at concurrency \(concurrency): \(run == nil)")
        }
        var settled = MockFaults()
        settled.museumGeneration = generation
        await museum.setFaults(settled)
        let finished = try await ExportHarness.run(
            configuration, concurrency: Int.random(in: 1...4, using: &random), cache: cache)
        let fresh = try await ExportHarness.run(configuration, concurrency: 1)
        let detail = "seed \(seed), \(collection.count) records, \(pageSize) a page: " + story.joined(separator: "; ")
        #expect(
            try ExportHarness.csvRows(finished.folder.read("collection.csv")).count
                == collection.count - collection.deletedAtTop * generation, "\(detail)")
        try CatalogChecks.expectIdenticalFolders(finished.folder, fresh.folder)
    }
}
