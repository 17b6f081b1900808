import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore

/// Numbers a server sends that must never crash the process or hang a harvest (issue 12, item 8).
@Suite struct HostileNumbersTests {
    @Test(
        arguments: [
            ("1e20", nil), ("inf", nil), ("nan", nil), ("-5", nil), ("1.5", nil),
            ("99999999999999999999999999", 1e9), ("120", 120),
        ] as [(String, Double?)])
    func `Retry-After takes delta-seconds only, capped, and never a number that cannot become an integer`(
        header: String, seconds: Double?
    ) {
        let response = SourceResponse(status: 429, headers: ["Retry-After": header], body: Data())
        #expect(response.retryAfter() == seconds)
        // What the worker does with it: wait, or fail at once saying how long was asked; no trap either way.
        let policy = RetryPolicy(jitter: { 0 })
        _ = policy.delay(beforeRetry: 1, after: response.statusFailure ?? .connection(""))
    }

    @Test func `a Retry-After of thirty years fails at once and says so without overflowing`() async {
        struct Forever: Transport {
            func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
                SourceResponse(status: 503, headers: ["Retry-After": "99999999999999999999"], body: Data())
            }
        }
        let worker = HarvestWorker(
            source: StubSource(pages: [[]]), transport: Forever(), options: HarvestOptions(),
            sleeper: RecordingSleeper())
        let error = await #expect(throws: ExportError.self) { _ = try await worker.fetch(.number(1)) }
        #expect(error?.description.contains("the server asks to wait 1000000000 s") == true)
    }

    @Test(arguments: [
        (Int.max, 1, 100), (1, Int.max, 1), (3_000, 0, 400), (0, 3_000, 400), (-4, -3, 400),
    ])
    func `image sizes near Int.max, zero or negative give a sane thumbnail`(height: Int, width: Int, expected: Int) {
        let image = ImageReference(
            url: "https://example.org/a.jpg", width: width, height: height,
            sizing: .fixed(smallURL: nil, smallWidth: nil))
        let thumbnail = ThumbnailSelector.thumbnail(for: image, width: 400)
        #expect(thumbnail.width >= 1 && thumbnail.width <= 400)
        #expect(thumbnail.height == expected)
    }

    @Test func `a reported total near Int.max gives a progress line, not a crash`() {
        let line = ExportPresenter.progressLine(
            HarvestProgress(
                source: "oai", pages: 1, objects: 50, reportedTotal: Int.max, elapsed: 0.001, retries: 0, cacheHits: 0))
        #expect(line.contains("about over 100 days left"))
        #expect(NumberText.seconds(.infinity) == "over 100 days")
        #expect(NumberText.seconds(.nan) == "? s")
        #expect(NumberText.seconds(59.94) == "59.9 s")
    }
}

/// HTTP dates read by hand (Foundation's DateFormatter leaked on Linux, found by the text fuzz target).
@Suite struct HTTPDateTests {
    @Test(arguments: [
        ("Sun, 22 Nov 2026 10:00:30 GMT", 1_795_341_630.0),
        ("Sunday, 22-Nov-26 10:00:30 GMT", 1_795_341_630.0),
        ("Sun Nov 22 10:00:30 2026", 1_795_341_630.0),
    ])
    func `the three HTTP date forms read alike`(text: String, seconds: Double) {
        #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: ["Sun, 31 Feb 2026 10:00:30 GMT", "Sun, 22 Nov 2026 25:00:30 GMT", "soon", "", "1e20"])
    func `anything else is no date`(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
