import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

@Suite struct UnsplashSourceTests {
    private let source = UnsplashSource(baseURL: url("http://127.0.0.1:9"), key: "k3y")

    @Test func `photos map to objects by photographer; the Link header's last page plans the harvest`() throws {
        let response = SourceResponse(
            status: 200,
            headers: [
                "Link":
                    #"<http://127.0.0.1:9/photos?page=346&per_page=30>; rel="last", <http://127.0.0.1:9/photos?page=2&per_page=30>; rel="next""#,
                "X-Total": "10372", "X-Ratelimit-Remaining": "49",
            ],
            body: try Fixtures.data("unsplash", "photos-page-1.json"))
        let page = try source.decode(response, page: .number(1))
        #expect(page.continuation == .pageNumbers(lastPage: 346, limit: Int.max, pageSize: 30))
        #expect(page.reportedTotal == 10_372 && page.notices.isEmpty)
        guard case .object(let coffee) = page.records[0], case .object(let untitled) = page.records[1],
            case .skipped = page.records[2]
        else {
            Issue.record("expected two photos and a skipped record")
            return
        }
        #expect(coffee.title == "A man drinking a coffee." && coffee.maker == "Gilbert Kane")
        #expect(coffee.date == "2016-05-03" && coffee.objectURL == "https://unsplash.com/photos/LBI7cgq3pbM")
        #expect(
            ThumbnailSelector.thumbnail(for: try #require(coffee.image), width: 400)
                == .init(
                    url: "https://images.unsplash.com/photo-1461988320302-91bde64fc8e4?ixid=2yJhcHBfaWQiOjEyMDd9&w=400",
                    width: 400, height: 267))
        #expect(untitled.title == "" && untitled.maker == "田中 由紀")
    }

    /// Found by a hostile check: a search answered with `total_pages: 0` and no `Link` header ended after its first
    /// page (10 of 45 photos).
    @Test func `a full first page with no count and no links is not the end`() throws {
        let search = UnsplashSource(baseURL: url("http://127.0.0.1:9"), key: "k3y", pageSize: 2, query: "cat")
        let photos = String(decoding: try Fixtures.data("unsplash", "photos-with-location.json"), as: UTF8.self)
        let body = Data(#"{"total": 0, "total_pages": 0, "results": \#(photos)}"#.utf8)
        let first = try search.decode(SourceResponse(status: 200, body: body), page: .number(1))
        #expect(first.continuation == .pageNumbers(lastPage: 1, limit: Int.max, pageSize: 2))
        #expect(try search.decode(SourceResponse(status: 200, body: body), page: .number(2)).continuation == .end)
    }

    /// Found by a hostile check: a photographer named "null", or "   ", was the maker while the credit line gave
    /// the username.
    @Test func `a null-like or blank name gives way to the username, as the credit line does`() throws {
        for name in [#""null""#, #""   ""#, "null"] {
            let body =
                #"[{"id":"a","description":"D","user":{"name":"#
                + name + #","username":"user_one"},"urls":{"raw":"https://images.unsplash.com/p"}}]"#
            let page = try source.decode(SourceResponse(status: 200, body: Data(body.utf8)), page: .number(1))
            guard case .object(let photo) = page.records.first else {
                Issue.record("\(page.records)")
                continue
            }
            #expect(photo.maker == "user_one", "\(name)")
        }
    }

    /// Found by a hostile check: a number where Unsplash writes a URL it is not even read for (`urls.full`) lost the
    /// photo's image, and a numeric city lost its place.
    @Test func `a member of another type loses only itself`() throws {
        let body = #"""
            [{"id":"a","description":"D","user":{"name":"Ann","username":"ann"},
            "urls":{"raw":"https://images.unsplash.com/p","full":5},"location":{"name":"Montréal, Canada","city":5}}]
            """#
        let page = try source.decode(SourceResponse(status: 200, body: Data(body.utf8)), page: .number(1))
        guard case .object(let photo) = page.records.first else {
            Issue.record("\(page.records)")
            return
        }
        #expect(photo.image?.url.hasPrefix("https://images.unsplash.com/p") == true)
        #expect(photo.details.place == "Montréal, Canada")
    }

    /// Found by a hostile check: an error sent with 200 read "field (record) is not of the expected type".
    @Test func `an error sent with 200 is told in Unsplash's words`() {
        let answer = SourceResponse(status: 200, body: Data(#"{"errors":["OAuth error: invalid scope"]}"#.utf8))
        #expect(source.failure(for: answer)?.message.contains("OAuth error: invalid scope") == true)
        #expect(source.failure(for: SourceResponse(status: 200, body: Data(#"{"total":0,"results":[]}"#.utf8))) == nil)
    }

    @Test func `the key goes in a header; a plain-text 403 is the used-up quota, not a retry`() throws {
        let request = try source.request(for: .number(2))
        #expect(request.url.absoluteString == "http://127.0.0.1:9/photos?page=2&per_page=30")
        #expect(request.headers["Authorization"] == "Client-ID k3y" && request.headers["Accept-Version"] == "v1")
        let exceeded = source.failure(for: SourceResponse(status: 403, body: Data("Rate Limit Exceeded".utf8)))
        guard case .quotaExhausted(let message) = exceeded else {
            Issue.record("expected the quota failure, got \(String(describing: exceeded))")
            return
        }
        #expect(message.contains("run again after"))
        let spent = SourceResponse(status: 429, headers: ["X-Ratelimit-Remaining": "0"], body: Data())
        #expect(source.failure(for: spent).map { $0.isTransient } == false)
    }

    @Test func `a 429 with a short Retry-After is throttling, retried like every other source (issue 12, item 17)`() {
        let throttled = source.failure(for: SourceResponse(status: 429, headers: ["Retry-After": "1"], body: Data()))
        #expect(throttled == .throttled("the server is throttling requests (HTTP 429)", retryAfter: 1))
        #expect(throttled?.isTransient == true)
        let plain = source.failure(
            for: SourceResponse(status: 429, headers: ["X-Ratelimit-Remaining": "37"], body: Data()))
        #expect(plain?.isTransient == true)
    }

    @Test func `no key is refused before any request`() {
        #expect(throws: ExportError.self) {
            _ = try UnsplashSource(SourceConfiguration(source: .unsplash), environment: [:])
        }
        #expect(
            LinkHeader.parse(#"<https://a/?page=1>; rel="first", <https://a/?page=9>; rel="last""#)
                == ["first": "https://a/?page=1", "last": "https://a/?page=9"])
    }
}

/// Recorded shapes from the live API (issue 12, fixtures).
@Suite struct UnsplashRecordedShapesTests {
    @Test func `sponsored photos in the feed are left out, with a notice`() throws {
        let source = UnsplashSource(baseURL: url("http://127.0.0.1:9"), key: "k")
        let body = try Fixtures.data("unsplash", "photos-page-with-sponsored.json")
        let page = try source.decode(SourceResponse(status: 200, body: body), page: .number(1))
        let ids = page.records.compactMap { if case .object(let object) = $0 { object.id } else { nil } }
        #expect(ids == ["LBI7cgq3pbM", "Dwu85P9SOIk"])
        #expect(page.records.count == 3)  // the broken record is still there, skipped
        #expect(page.notices == ["page 1: 1 sponsored photo (advertisements in Unsplash's feed) left out"])
        // Found by a review: the page counts as the server listed it, so that a full page is not taken for the
        // last, nor one of advertisements only for an empty one.
        #expect(page.listed == 4)
    }
}
