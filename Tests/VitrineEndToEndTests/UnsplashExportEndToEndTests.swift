import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

/// Unsplash through a loopback imitation: bare arrays, the Link header, the key in a header, Imgix sizes, the
/// hourly quota's plain-text 403.
@Suite struct UnsplashExportEndToEndTests {
    @Test func `every photo lands once in its photographer's section, sized by Imgix`() async throws {
        let museum = try await MockMuseum.unsplash(UnsplashCollection(count: 75))
        defer { Task { await museum.stop() } }

        let run = try await ExportHarness.run(
            SourceConfiguration(source: .unsplash, baseURL: museum.unsplashBaseURL),
            environment: ["UNSPLASH_ACCESS_KEY": "demo-access-key"])

        var expected: [String: String?] = [:]
        for number in 0..<75 {
            expected[UnsplashCollection.id(number)] = SyntheticCollection.object(number).maker ?? "user99"
        }
        try CatalogChecks.expectEveryObjectOnce(in: run.folder, expected: expected)
        #expect(run.summary.summary.hasPrefix("vitrine: unsplash: 3 pages, 75 objects"))

        // description, else alt_description, else untitled; the raw URL keeps its ixid and gains w=.
        let rows = try ExportHarness.csvRows(run.folder.read("collection.csv"))
        let row = { (number: Int) in rows.first { $0[0] == UnsplashCollection.id(number) } }
        #expect(row(0)?[1] == SyntheticCollection.object(0).title)
        #expect(row(1)?[1] == SyntheticCollection.object(1).title)
        #expect(row(2)?[1] == "Untitled")
        #expect(
            row(0)?[4]
                == "https://images.unsplash.com/photo-1461988320302-0?ixid=M3wxMjA3fDB8MXxhbGx80fHx8fHx8fHx8&w=400")
        #expect(row(0)?[6] == "https://unsplash.com/photos/\(UnsplashCollection.id(0))")
        // The credit Unsplash's guidelines ask for: the photographer and Unsplash linked, as referrals.
        let page = try run.folder.read("objects/\(UnsplashCollection.id(0).lowercased()).html")
        let unsplash = #"<a href="https://unsplash.com/?utm_source=vitrine&amp;utm_medium=referral" rel="noopener">"#
        let tags = #"\?utm_source=vitrine&amp;utm_medium=referral" rel="noopener">"#
        let profile = try Regex(#"<br>Photo by <a href="https://unsplash\.com/@\w+"# + tags)
        #expect(page.contains(profile))
        #expect(page.contains(" on \(unsplash)Unsplash</a></dd>"))

        // The key travels in the Authorization header only: never in a URL or a catalog.
        let requests = await museum.requests()
        #expect(requests.sorted() == (1...3).map { "/photos?page=\($0)&per_page=30" })
        #expect(
            await museum.requestHeaders().allSatisfy {
                $0["authorization"] == "Client-ID demo-access-key" && $0["accept-version"] == "v1"
            })
        for file in ["index.html", "catalog.md", "collection.csv"] {
            #expect(try !run.folder.read(file).contains("demo-access-key"))
        }
    }

    @Test func `a used-up quota and a wrong key stop with a line that says what to do`() async throws {
        let museum = try await MockMuseum.unsplash(UnsplashCollection(count: 200, quota: 2))
        defer { Task { await museum.stop() } }

        let quota = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(
                SourceConfiguration(source: .unsplash, baseURL: museum.unsplashBaseURL, key: "demo-access-key"),
                concurrency: 1)
        }
        let line = quota?.description ?? ""
        #expect(line.contains("Unsplash's rate limit is used up (HTTP 403: Rate Limit Exceeded"), "\(line)")
        #expect(line.contains("run again after"))

        let wrongKey = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(
                SourceConfiguration(source: .unsplash, baseURL: museum.unsplashBaseURL, key: "wrong"))
        }
        #expect(
            wrongKey?.description
                == "unsplash: page 1 (\(museum.unsplashBaseURL)/photos?page=1&per_page=30): Unsplash refused the access key "
                + "(HTTP 401: OAuth error: The access token is invalid); check --key or UNSPLASH_ACCESS_KEY")
    }
}
