import Foundation
import Testing

@testable import VitrineCore
@testable import VitrineSources

@Suite struct ArtInstituteSourceTests {
    private let source = ArtInstituteSource(baseURL: url("https://api.artic.edu/api/v1"), pageSize: 3)

    @Test func `a listing page maps artworks, keeps null images as none, and skips a broken record`() throws {
        let response = SourceResponse(status: 200, body: try Fixtures.data("aic", "artworks-page-1.json"))
        let page = try source.decode(response, page: .number(1))
        #expect(page.continuation == .pageNumbers(lastPage: 43_689, limit: Int.max, pageSize: Int.max))
        #expect(page.reportedTotal == 131_066)
        guard case .object(let jatte) = page.records[0], case .object(let chair) = page.records[1],
            case .object(let wave) = page.records[2], case .skipped = page.records[3]
        else {
            Issue.record("expected three objects and a skipped record: \(page.records)")
            return
        }
        #expect(jatte.id == "27992" && jatte.maker == "Georges Seurat" && jatte.date == "1884–86")
        #expect(jatte.objectURL == "https://www.artic.edu/artworks/27992")
        let image = try #require(jatte.image)
        #expect(
            image.url == "https://www.artic.edu/iiif/2/2d484387-2509-5e8e-2c43-22f9981972eb/full/843,/0/default.jpg")
        // The smallest cached width at least as wide as asked; past the largest, the width asked.
        for (asked, served) in [(150, 200), (400, 400), (401, 600), (700, 843), (1_000, 1_000)] {
            #expect(
                ThumbnailSelector.thumbnail(for: image, width: asked).url
                    == "https://www.artic.edu/iiif/2/2d484387-2509-5e8e-2c43-22f9981972eb/full/\(served),/0/default.jpg"
            )
        }
        // artist_title null: the first line of artist_display.
        #expect(chair.maker == "Unknown Maker" && chair.image == nil)
        #expect(wave.maker == "Katsushika Hokusai")
    }

    @Test func `requests ask only for the fields used, name Vitrine, and search when asked`() throws {
        let listing = try source.request(for: .number(2))
        #expect(
            listing.url.absoluteString
                == "https://api.artic.edu/api/v1/artworks?page=2&limit=3&fields=id%2Ctitle%2Cartist_title%2Cartist_display%2Cdate_display%2Cimage_id%2Cthumbnail"
        )
        #expect(listing.headers["AIC-User-Agent"]?.hasPrefix("Vitrine/") == true)
        #expect(listing.headers["Referer"] == nil)
        let search = ArtInstituteSource(baseURL: source.baseURL, pageSize: 100, query: "water lilies")
        #expect(
            try search.request(for: .number(1)).url.absoluteString.hasPrefix(
                "https://api.artic.edu/api/v1/artworks/search?q=water%20lilies&page=1&limit=100"))
        let window = SourceResponse(
            status: 403, body: Data(#"{"status":403,"error":"Invalid number of results"}"#.utf8))
        #expect(search.failure(for: window)?.message.contains("only the first 1,000 results") == true)
    }

    @Test func `a page size over 100 and a start page of 0 are refused`() {
        for configuration in [
            SourceConfiguration(source: .aic, pageSize: 101), SourceConfiguration(source: .aic, startPage: 0),
            SourceConfiguration(source: .aic, set: "x"),
        ] {
            #expect(throws: ExportError.self) { _ = try ArtInstituteSource(configuration) }
        }
    }
}

@Suite struct MetSourceTests {
    private let source = MetSource(baseURL: url("https://collectionapi.metmuseum.org/public/collection"))

    private func decode(_ name: String, status: Int = 200, page: PageCursor) throws -> SourcePage {
        let response = SourceResponse(status: status, body: try Fixtures.data("met", name))
        if let failure = source.failure(for: response) { throw failure }
        return try source.decode(response, page: page)
    }

    @Test func `an object maps maker, date, both renditions and its page`() throws {
        let page = try decode("object-436535.json", page: .object("436535"))
        guard case .object(let wheat) = page.records.first else {
            Issue.record("expected an object")
            return
        }
        #expect(wheat.id == "436535" && wheat.title == "Wheat Field with Cypresses")
        #expect(wheat.maker == "Vincent van Gogh" && wheat.date == "1889")
        #expect(wheat.objectURL == "https://www.metmuseum.org/art/collection/search/436535")
        let image = try #require(wheat.image)
        #expect(ThumbnailSelector.thumbnail(for: image, width: 400).url.hasSuffix("/web-large/DT1567.jpg"))
        #expect(ThumbnailSelector.fullImageURL(for: image).hasSuffix("/original/DT1567.jpg"))
    }

    @Test func `a work in copyright with no images has none; a 404 id is skipped; a null id list is empty`() throws {
        let copyrighted = try decode("object-in-copyright.json", page: .object("488978"))
        guard case .object(let kahlo) = copyrighted.records.first else {
            Issue.record("expected an object")
            return
        }
        #expect(kahlo.image == nil && kahlo.maker == "Frida Kahlo")
        #expect(
            try decode("not-found.json", status: 404, page: .object("1")).records
                == [.skipped(reason: "object 1: ObjectID not found (HTTP 404)")])
        #expect(try decode("search-nothing.json", page: .number(0)).continuation == .end)
        #expect(
            try decode("objects.json", page: .token(nil)).continuation
                == .objects(["1", "2", "3", "436535", "436536"], next: nil, pageSize: 100))
    }

    @Test func `the bot protection's 403 page and a non-JSON body are throttling, to be retried`() throws {
        let challenge = try Fixtures.data("met", "bot-challenge.html")
        let refused = source.failure(for: SourceResponse(status: 403, body: challenge))
        #expect(refused?.isTransient == true)
        #expect(throws: HarvestFailure.self) {
            try source.decode(SourceResponse(status: 200, body: Data("Hello World".utf8)), page: .object("1"))
        }
        do {
            _ = try source.decode(SourceResponse(status: 200, body: challenge), page: .object("1"))
        } catch {
            #expect(error.isTransient)
        }
    }

    @Test func `departments, searches and their combinations build the right requests`() throws {
        let department = try MetSource(SourceConfiguration(source: .met, department: "1, 3,9"))
        #expect(
            try department.request(for: .token(nil)).url.absoluteString
                == "https://collectionapi.metmuseum.org/public/collection/v1/objects?departmentIds=1%7C3%7C9")
        let artist = try MetSource(SourceConfiguration(source: .met, artist: "Vincent van Gogh"))
        #expect(
            try artist.request(for: .number(500)).url.absoluteString
                == "https://collectionapi.metmuseum.org/public/collection/v1.1/search?q=Vincent%20van%20Gogh&artistOrCulture=true&hasImages=true&offset=500&limit=500"
        )
        #expect(try artist.request(for: .object("436535")).url.path.hasSuffix("/v1/objects/436535"))
        #expect(throws: ExportError.self) {
            _ = try MetSource(SourceConfiguration(source: .met, query: "a", artist: "b"))
        }
        #expect(throws: ExportError.self) {
            _ = try MetSource(SourceConfiguration(source: .met, department: "Paintings"))
        }
    }
}

@Suite struct UnsplashSourceTests {
    private let source = UnsplashSource(baseURL: url("https://api.unsplash.com"), key: "k3y")

    @Test func `photos map to objects by photographer; the Link header's last page plans the harvest`() throws {
        let response = SourceResponse(
            status: 200,
            headers: [
                "Link":
                    #"<https://api.unsplash.com/photos?page=346&per_page=30>; rel="last", <https://api.unsplash.com/photos?page=2&per_page=30>; rel="next""#,
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

    @Test func `the key goes in a header; a plain-text 403 is the used-up quota, not a retry`() throws {
        let request = try source.request(for: .number(2))
        #expect(request.url.absoluteString == "https://api.unsplash.com/photos?page=2&per_page=30")
        #expect(request.headers["Authorization"] == "Client-ID k3y" && request.headers["Accept-Version"] == "v1")
        let exceeded = source.failure(for: SourceResponse(status: 403, body: Data("Rate Limit Exceeded".utf8)))
        guard case .quotaExhausted(let message) = exceeded else {
            Issue.record("expected the quota failure, got \(String(describing: exceeded))")
            return
        }
        #expect(message.contains("run again after"))
        #expect(source.failure(for: SourceResponse(status: 429, body: Data())).map { $0.isTransient } == false)
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
