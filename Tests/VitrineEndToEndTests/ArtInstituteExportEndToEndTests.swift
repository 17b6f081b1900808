import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

/// The Art Institute of Chicago through a loopback imitation: 1-based pages, `fields=`, records that move
/// between pages, null image ids, the search window, the AIC-User-Agent header and the rate ceiling.
@Suite struct ArtInstituteExportEndToEndTests {
    /// Found by a hostile check: a resumed listing read its stored pages and the server's next ones, though the
    /// listing had moved since (records deleted at its top): records lost, deleted ones kept, exit 0.
    @Test func `a listing resumed after it moved starts over and equals a fresh export`() async throws {
        var collection = ArtInstituteCollection(count: 250, movingRecord: false)
        collection.deletedAtTop = 5
        let museum = try await MockMuseum.artInstitute(collection)
        defer { Task { await museum.stop() } }
        let configuration = SourceConfiguration(source: .aic, baseURL: museum.artInstituteBaseURL)
        let cache = FilePageCache(directory: try TemporaryFolder().url)
        await museum.setFaults(MockFaults(outageAfter: 1, outageStatus: 404))
        await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache, retries: 0)
        }
        var later = MockFaults()
        later.museumGeneration = 1
        await museum.setFaults(later)
        let resumed = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        let fresh = try await ExportHarness.run(configuration, concurrency: 1)
        #expect(resumed.summary.notices.contains { $0.contains("started over") }, "\(resumed.summary.notices)")
        try CatalogChecks.expectIdenticalFolders(resumed.folder, fresh.folder)
        #expect(try ExportHarness.csvRows(resumed.folder.read("collection.csv")).count == 245)
    }

    /// Found by a review: a listing that started over and was cut off again left the first pass's later pages
    /// stored under the same page numbers, and every resume after found them changed and started over again.
    @Test func `a listing that started over and was cut off again resumes without starting over`() async throws {
        var collection = ArtInstituteCollection(count: 450, movingRecord: false)
        collection.deletedAtTop = 5
        let museum = try await MockMuseum.artInstitute(collection)
        defer { Task { await museum.stop() } }
        let configuration = SourceConfiguration(source: .aic, baseURL: museum.artInstituteBaseURL)
        let cache = FilePageCache(directory: try TemporaryFolder().url)
        // Pages 1 to 3 of 5 stored; then the listing moves, and the resume is cut off after the check (of page 3)
        // and the new pass's first page: page 2 as the first pass stored it must not be read.
        for (outage, generation) in [(3, 0), (2, 1)] {
            var faults = MockFaults(outageAfter: outage, outageStatus: 404)
            faults.museumGeneration = generation
            await museum.setFaults(faults)
            await museum.resetLog()  // the outage counts the requests logged
            await #expect(throws: ExportError.self) {
                _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache, retries: 0)
            }
        }
        var later = MockFaults()
        later.museumGeneration = 1
        await museum.setFaults(later)
        await museum.resetLog()
        let resumed = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        // Page 1, stored by the new pass, asked again to check it; then the others.
        let asked = await museum.requests().compactMap { URLComponents(string: $0)?.queryItems?.first?.value }
        let fresh = try await ExportHarness.run(configuration, concurrency: 1)
        #expect(!resumed.summary.notices.contains { $0.contains("started over") }, "\(resumed.summary.notices)")
        #expect(asked == ["1", "2", "3", "4", "5"])
        try CatalogChecks.expectIdenticalFolders(resumed.folder, fresh.folder)
    }

    /// Found by a hostile check: a count of Int.max crashed the process, and pages counted far too high were asked
    /// for one after another though they came back empty; a list that counts artworks but lists none replaced the
    /// catalog with an empty one.
    @Test func `counts that lie neither crash nor page for ever, and a list of none fails`() async throws {
        let pages = Locked(0)
        let source = SourceConfiguration(source: .aic, baseURL: "http://127.0.0.1:9/api/v1")
        let huge = #"{"pagination": {"total": 9223372036854775807, "total_pages": null}, "data": [{"id": 1}]}"#
        let decoded = try ArtInstituteSource(baseURL: url("http://127.0.0.1:9/api/v1"), pageSize: 3).decode(
            SourceResponse(status: 200, body: Data(huge.utf8)), page: .number(1))
        #expect(decoded.records.count == 1)
        let endless = ScriptedPages { number in
            pages.withLock { $0 += 1 }
            let data = number == 1 ? #"[{"id": 1, "title": "One"}]"# : "[]"
            return #"{"pagination": {"total": null, "total_pages": 9223372036854775807}, "data": \#(data)}"#
        }
        let run = try await ExportHarness.run(source, transport: endless)
        #expect(run.summary.summary.contains("1 object"), "\(run.summary.summary)")
        #expect(pages.current <= 3 + 8, "\(pages.current) pages asked for")
        let none = ScriptedPages { _ in #"{"pagination": {"total": 25, "total_pages": 3}, "data": []}"# }
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(source, transport: none)
        }
        #expect(
            error?.description.contains("counts 25 objects but listed none") == true, "\(String(describing: error))")
        #expect(error?.exitStatus == 75)
    }

    /// Found by a hostile check: a list that counted none and listed none, where the last export had objects,
    /// replaced the catalog with an empty one and emptied the collection store, with exit 0.
    @Test func `a whole list of none where the last export had objects is refused`() async throws {
        let source = SourceConfiguration(source: .aic, baseURL: "http://127.0.0.1:9/api/v1")
        let emptied = Locked(false)
        let pages = ScriptedPages { _ in
            let data = emptied.current ? "" : #"{"id": 1, "title": "One"},{"id": 2, "title": "Two"}"#
            return #"{"pagination": {"total": \#(data.isEmpty ? 0 : 2), "total_pages": 1}, "data": [\#(data)]}"#
        }
        let cache = FilePageCache(directory: try TemporaryFolder().url)
        let output = try TemporaryFolder()
        _ = try await ExportHarness.run(source, cache: cache, transport: pages, output: output)
        let before = try TemporaryFolder.files(in: output.url)
        emptied.withLock { $0 = true }
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(source, cache: cache, transport: pages, output: output)
        }
        #expect(error?.description.contains("listed no objects, where the collection store") == true, "\(error)")
        #expect(error?.exitStatus == 75)
        #expect(try TemporaryFolder.files(in: output.url) == before)
        // Without a store to compare with, the list is taken as it is.
        let fresh = try await ExportHarness.run(source, transport: pages)
        #expect(fresh.summary.summary.contains(" 0 objects"), "\(fresh.summary.summary)")
    }

    @Test func `every artwork lands once in its maker's section, with cached IIIF widths`() async throws {
        let collection = ArtInstituteCollection(count: 250)
        let museum = try await MockMuseum.artInstitute(collection)
        defer { Task { await museum.stop() } }

        let run = try await ExportHarness.run(
            SourceConfiguration(source: .aic, baseURL: museum.artInstituteBaseURL), thumbnailWidth: 500)

        // Record 1 moved while the listing was walked: never served, so the summary says one is missing;
        // record 0 was served twice and is kept once.
        var expected: [String: String?] = [:]
        for number in collection.listing {
            expected[String(ArtInstituteCollection.id(number))] = SyntheticCollection.object(number).maker
        }
        try CatalogChecks.expectEveryObjectOnce(in: run.folder, expected: expected)
        #expect(
            run.summary.summary.hasPrefix(
                "vitrine: aic: 3 pages, 249 objects (the API reported 250), 12 sections, 1 duplicate, 0 skipped"))
        #expect(run.summary.notices == ["note: the API reported 250 objects but 249 distinct ones were read"])

        // 500 px asked: the smallest cached width above it is 600; `image_id: null` gives no image.
        let first = try #require(try CatalogChecks.row("27000", in: run.folder))
        let image = try #require(ArtInstituteCollection.imageID(0))
        #expect(first[4] == "https://www.artic.edu/iiif/2/\(image)/full/600,/0/default.jpg")
        #expect(first[5] == "https://www.artic.edu/iiif/2/\(image)/full/843,/0/default.jpg")
        #expect(first[6] == "https://www.artic.edu/artworks/27000")
        #expect(try CatalogChecks.row("27004", in: run.folder)?[4] == "")
        // artist_title null: the first line of artist_display names the maker.
        #expect(try CatalogChecks.row("27004", in: run.folder)?[2] == SyntheticCollection.object(4).maker)

        let requests = await museum.requests()
        #expect(requests.count == 3)
        #expect(
            requests.first
                == "/api/v1/artworks?page=1&limit=100&fields=id%2Ctitle%2Cartist_title%2Cartist_display%2Cdate_display%2Cimage_id%2Cthumbnail%2Cdescription%2Cshort_description%2Cmedium_display%2Cdimensions%2Ccredit_line%2Cplace_of_origin%2Cartwork_type_title%2Cclassification_title%2Cis_public_domain%2Ccopyright_notice%2Cdate_start%2Cdate_end%2Csubject_titles%2Cstyle_title%2Cterm_titles%2Ccategory_titles%2Cupdated_at"
        )
        let headers = await museum.requestHeaders()
        #expect(headers.allSatisfy { $0["aic-user-agent"]?.hasPrefix("Vitrine/") == true && $0["referer"] == nil })
        // 60 requests a minute: the worker paces to it (the spacing is checked with a fixed clock in RetryTests).
        #expect(ArtInstituteSource.descriptor.requestsPerSecond == 1)
    }

    @Test func `an artist search walks only the window the search serves, and says when it is capped`()
        async throws
    {
        let museum = try await MockMuseum.artInstitute(ArtInstituteCollection(count: 2_400, movingRecord: false))
        defer { Task { await museum.stop() } }

        let byArtist = try await ExportHarness.run(
            SourceConfiguration(source: .aic, baseURL: museum.artInstituteBaseURL, artist: "Judith Leyster"))
        let rows = try ExportHarness.csvRows(byArtist.folder.read("collection.csv"))
        let leyster = (0..<2_400).filter { SyntheticCollection.object($0).maker == "Judith Leyster" }
        #expect(rows.count == leyster.count && rows.allSatisfy { $0[2] == "Judith Leyster" })

        let capped = try await ExportHarness.run(
            SourceConfiguration(source: .aic, baseURL: museum.artInstituteBaseURL, query: "study"))
        #expect(try ExportHarness.csvRows(capped.folder.read("collection.csv")).count == 1_000)
        #expect(capped.summary.notices.contains { $0.contains("serves anonymous callers only the first 1,000") })
        let pages = await museum.requests().filter { $0.contains("q=study") }
        #expect(pages.count == 10)
    }
}

/// Answers an Art Institute listing's page `page` with the body `answer` gives.
struct ScriptedPages: Transport {
    let response: @Sendable (Int) -> SourceResponse

    init(_ answer: @escaping @Sendable (Int) -> String) {
        self.response = { page in
            SourceResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(answer(page).utf8))
        }
    }

    /// Whole answers: a status and headers (a `Link` header, a 503) beside the body.
    init(responses: @escaping @Sendable (Int) -> SourceResponse) {
        self.response = responses
    }

    func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return response(items.first { $0.name == "page" }?.value.flatMap { Int($0) } ?? 1)
    }
}
