import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

/// Found by a hostile check of the JSON sources: counts that are missing or too low ended a harvest early with
/// exit 0, and pages past the end that repeat themselves, or link on for ever, never ended it.
@Suite struct PagingLiesTests {
    @Test(arguments: ArtInstituteCollection.Counting.allCases)
    func `the Art Institute is read whole however its pagination counts`(counting: ArtInstituteCollection.Counting)
        async throws
    {
        var collection = ArtInstituteCollection(count: 450, movingRecord: false)
        collection.counting = counting
        let museum = try await MockMuseum.artInstitute(collection)
        defer { Task { await museum.stop() } }
        let run = try await ExportHarness.run(SourceConfiguration(source: .aic, baseURL: museum.artInstituteBaseURL))
        #expect(run.summary.summary.hasPrefix("vitrine: aic: 5 pages, 450 objects"), "\(run.summary.summary)")
        // Five pages, and at most one asked for past the end (where the count said nothing of it).
        #expect((5...6).contains(await museum.requests().count))
    }

    /// Found by a hostile check: two empty pages in the middle of a list (a server's gap) ended it, and which pages
    /// after them were kept depended on the order they arrived in, so on `--concurrency`.
    @Test func `empty pages amid a list that counts more are passed over, at every concurrency`() async throws {
        let source = SourceConfiguration(source: .aic, baseURL: "http://127.0.0.1:9/api/v1")
        // Three a page, pages 3 and 4 empty: 10 objects listed of the 16 counted.
        let gap = ScriptedPages { number in
            let ids = (3...4).contains(number) || number > 6 ? [] : (1...(number == 6 ? 1 : 3)).map { number * 10 + $0 }
            let data = ids.map { #"{"id": \#($0), "title": "T\#($0)"}"# }.joined(separator: ",")
            return #"{"pagination": {"total": 16, "limit": 3, "total_pages": 6}, "data": [\#(data)]}"#
        }
        var folders: [TemporaryFolder] = []
        for concurrency in [1, 2, 4, 8] {
            let run = try await ExportHarness.run(source, concurrency: concurrency, transport: gap)
            #expect(run.summary.summary.contains(" 10 objects"), "\(concurrency): \(run.summary.summary)")
            folders.append(run.folder)
        }
        for folder in folders.dropFirst() { try CatalogChecks.expectIdenticalFolders(folder, folders[0]) }
    }

    @Test(arguments: UnsplashCollection.PastTheEnd.allCases)
    func `Unsplash ends where its photos do, whatever the pages past the end say`(
        pastTheEnd: UnsplashCollection.PastTheEnd
    ) async throws {
        var collection = UnsplashCollection(count: 75)
        collection.pastTheEnd = pastTheEnd
        let museum = try await MockMuseum.unsplash(collection)
        defer { Task { await museum.stop() } }
        let run = try await ExportHarness.run(
            SourceConfiguration(source: .unsplash, baseURL: museum.unsplashBaseURL),
            environment: ["UNSPLASH_ACCESS_KEY": "demo-access-key"])
        #expect(run.summary.summary.contains(" 75 objects, "), "\(run.summary.summary)")
        #expect(run.summary.summary.contains(" 0 duplicates"), "\(run.summary.summary)")
        #expect((3...4).contains(await museum.requests().count))
    }
}
