import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

/// The Met through a loopback imitation: the id list, one request per object, dead ids, works in copyright,
/// bot-protection 403 pages and non-JSON answers (retried), departments and the v1.1 search.
@Suite struct MetExportEndToEndTests {
    private func expected(_ numbers: some Sequence<Int>, _ collection: MetCollection) -> [String: String?] {
        var expected: [String: String?] = [:]
        for number in numbers where !collection.isMissing(number) {
            expected[String(MetCollection.id(number))] = SyntheticCollection.object(number).maker
        }
        return expected
    }

    @Test func `every object lands once in its maker's section; dead ids are skipped and throttling retried`()
        async throws
    {
        let collection = MetCollection(count: 120, throttledOnce: [5, 40], garbledOnce: [7])
        let museum = try await MockMuseum.met(collection)
        defer { Task { await museum.stop() } }

        let run = try await ExportHarness.run(SourceConfiguration(source: .met, baseURL: museum.metBaseURL))

        try CatalogChecks.expectEveryObjectOnce(in: run.folder, expected: expected(0..<120, collection))
        #expect(
            run.summary.summary.hasPrefix("vitrine: met: 121 pages, 113 objects, 12 sections, 0 duplicates, 7 skipped"))
        #expect(
            run.summary.warnings.first
                == "warning: page object 436048, record 1: object 436048: ObjectID not found (HTTP 404)")
        // Each throttled or garbled object was asked again, once.
        let requests = await museum.requests()
        for number in [5, 40, 7] {
            #expect(requests.filter { $0 == "/public/collection/v1/objects/\(MetCollection.id(number))" }.count == 2)
        }
        #expect(requests.count == 1 + 120 + 3)
        // Retry pauses with the backoff's first step (1 s, half of it jittered), besides the rate's slots.
        #expect(run.pauses.filter { $0 == .milliseconds(750) }.count == 3)

        // The small rendition; for a work in copyright the additional image's web-large copy.
        let open = try #require(try CatalogChecks.row("436000", in: run.folder))
        #expect(open[4] == "https://images.metmuseum.org/CRDImages/ep/web-large/DT436000.jpg")
        #expect(open[5] == "https://images.metmuseum.org/CRDImages/ep/original/DT436000.jpg")
        #expect(open[6] == "https://www.metmuseum.org/art/collection/search/436000")
        let copyrighted = try #require(try CatalogChecks.row(String(MetCollection.id(5)), in: run.folder))
        #expect(copyrighted[4] == "https://images.metmuseum.org/CRDImages/ep/web-large/LC-DT436015.jpg")
        #expect(try CatalogChecks.row(String(MetCollection.id(4)), in: run.folder)?[4] == "")
    }

    @Test func `departments, searches and an empty search shape the id list`() async throws {
        let collection = MetCollection(count: 90)
        let museum = try await MockMuseum.met(collection)
        defer { Task { await museum.stop() } }

        let department = try await ExportHarness.run(
            SourceConfiguration(source: .met, baseURL: museum.metBaseURL, department: "11"))
        try CatalogChecks.expectEveryObjectOnce(
            in: department.folder, expected: expected((0..<90).filter { $0 % 3 == 2 }, collection))
        #expect(await museum.requests().first == "/public/collection/v1/objects?departmentIds=11")

        let search = try await ExportHarness.run(
            SourceConfiguration(source: .met, baseURL: museum.metBaseURL, query: "still life"))
        let matching = (0..<90).filter { SyntheticCollection.object($0).title.lowercased().contains("still life") }
        try CatalogChecks.expectEveryObjectOnce(in: search.folder, expected: expected(matching, collection))
        #expect(
            await museum.requests().contains(
                "/public/collection/v1.1/search?q=still%20life&hasImages=true&offset=0&limit=500"))

        let nothing = try await ExportHarness.run(
            SourceConfiguration(source: .met, baseURL: museum.metBaseURL, query: "no such thing"))
        #expect(try ExportHarness.csvRows(nothing.folder.read("collection.csv")).isEmpty)

        let limited = try await ExportHarness.run(
            SourceConfiguration(source: .met, baseURL: museum.metBaseURL, pageSize: 10), maxPages: 2)
        #expect(try ExportHarness.csvRows(limited.folder.read("collection.csv")).count == 19)
    }
}
