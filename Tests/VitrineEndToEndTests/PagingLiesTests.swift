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

    /// Found by a hostile check: pages past a count too low that answer with the last page again, its records in
    /// another order (ties in a search index), were asked for without end.
    @Test func `the Art Institute ends where pages past its count list the last page again, reordered`() async throws {
        let asked = Locked(0)
        let reordering = ScriptedPages { number in
            asked.withLock { $0 += 1 }
            // Full pages of 100 past a count of 100; past page 3, page 3's records turned by one more each page:
            // never twice in a row in one order.
            let ids = (0..<100).map { 1_000 * min(number, 3) + (number <= 3 ? $0 : (number + $0) % 100) }
            let data = ids.map { #"{"id": \#($0), "title": "T\#($0)"}"# }.joined(separator: ",")
            return #"{"pagination": {"total": 100, "limit": 100, "total_pages": 1}, "data": [\#(data)]}"#
        }
        let run = try await ExportHarness.run(
            SourceConfiguration(source: .aic, baseURL: "http://127.0.0.1:9/api/v1"), concurrency: 1,
            transport: reordering)
        #expect(run.summary.summary.contains(" 300 objects, "), "\(run.summary.summary)")
        #expect(run.summary.summary.contains(" 0 duplicates"), "\(run.summary.summary)")
        #expect(asked.current == 4)
    }

    /// Found by a hostile check: an Unsplash listing walked by its `next` links (no `last`), cut off with two pages
    /// stored, resumed after a new upload took its first page as a changed list of none: an empty catalog, exit 0.
    @Test func `Unsplash resumed after its feed moved starts over, with two pages stored or more`() async throws {
        for stored in [2, 3] {
            let (newUpload, failing) = (Locked(false), Locked(true))
            let feed = ScriptedPages(responses: { page in
                if failing.current, page == stored + 1 { return SourceResponse(status: 503, body: Data("down".utf8)) }
                let photos = (newUpload.current ? [999] : []) + Array(1...100)
                let shown = photos.dropFirst((page - 1) * 30).prefix(30).map { number in
                    #"{"id": "ph\#(number)", "description": "Photo \#(number)", "user": {"name": "User \#(number % 3)"}, "#
                        + #""urls": {"raw": "https://images.unsplash.com/photo-\#(number)"}}"#
                }
                let next =
                    page * 30 < photos.count
                    ? ["Link": "<http://127.0.0.1:9/photos?page=\(page + 1)>; rel=\"next\""] : [:]
                return SourceResponse(
                    status: 200, headers: next.merging(["Content-Type": "application/json"]) { $1 },
                    body: Data("[\(shown.joined(separator: ","))]".utf8))
            })
            let configuration = SourceConfiguration(source: .unsplash, baseURL: "http://127.0.0.1:9")
            let key = ["UNSPLASH_ACCESS_KEY": "k"]
            let cache = FilePageCache(directory: try TemporaryFolder().url)
            await #expect(throws: ExportError.self) {
                _ = try await ExportHarness.run(
                    configuration, concurrency: 1, environment: key, cache: cache, retries: 0, transport: feed)
            }
            failing.withLock { $0 = false }
            newUpload.withLock { $0 = true }
            let resumed = try await ExportHarness.run(
                configuration, concurrency: 1, environment: key, cache: cache, transport: feed)
            #expect(resumed.summary.summary.contains(" 101 objects, "), "\(stored): \(resumed.summary.summary)")
            #expect(resumed.summary.notices.contains { $0.contains("started over") }, "\(resumed.summary.notices)")
        }
    }

    @Test(arguments: UnsplashCollection.PastTheEnd.allCases)
    func `Unsplash ends where its photos do, whatever the pages past the end say`(
        pastTheEnd: UnsplashCollection.PastTheEnd
    ) async throws {
        // 90 photos fill their last page, and a full last page is followed by one past it.
        var collection = UnsplashCollection(count: pastTheEnd == .lastPageReordered ? 90 : 75)
        collection.pastTheEnd = pastTheEnd
        let museum = try await MockMuseum.unsplash(collection)
        defer { Task { await museum.stop() } }
        let run = try await ExportHarness.run(
            SourceConfiguration(source: .unsplash, baseURL: museum.unsplashBaseURL),
            environment: ["UNSPLASH_ACCESS_KEY": "demo-access-key"])
        #expect(run.summary.summary.contains(" \(collection.count) objects, "), "\(run.summary.summary)")
        #expect(run.summary.summary.contains(" 0 duplicates"), "\(run.summary.summary)")
        #expect((3...4).contains(await museum.requests().count))
    }
}
