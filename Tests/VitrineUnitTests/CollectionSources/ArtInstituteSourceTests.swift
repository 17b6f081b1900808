import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

@Suite struct ArtInstituteSourceTests {
    private let source = ArtInstituteSource(baseURL: url("http://127.0.0.1:9/api/v1"), pageSize: 3)

    @Test func `a listing page maps artworks, keeps null images as none, and skips a broken record`() throws {
        let response = SourceResponse(status: 200, body: try Fixtures.data("aic", "artworks-page-1.json"))
        let page = try source.decode(response, page: .number(1))
        #expect(page.continuation == .pageNumbers(lastPage: 43_689, limit: Int.max, pageSize: 3))
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
                == "http://127.0.0.1:9/api/v1/artworks?page=2&limit=3&fields=id%2Ctitle%2Cartist_title%2Cartist_display%2Cdate_display%2Cimage_id%2Cthumbnail%2Cdescription%2Cshort_description%2Cmedium_display%2Cdimensions%2Ccredit_line%2Cplace_of_origin%2Cartwork_type_title%2Cclassification_title%2Cis_public_domain%2Ccopyright_notice%2Cdate_start%2Cdate_end%2Csubject_titles%2Cstyle_title%2Cterm_titles%2Ccategory_titles%2Cupdated_at"
        )
        #expect(listing.headers["AIC-User-Agent"]?.hasPrefix("Vitrine/") == true)
        #expect(listing.headers["Referer"] == nil)
        let search = ArtInstituteSource(baseURL: source.baseURL, pageSize: 100, query: "water lilies")
        #expect(
            try search.request(for: .number(1)).url.absoluteString.hasPrefix(
                "http://127.0.0.1:9/api/v1/artworks/search?q=water%20lilies&page=1&limit=100"))
        let window = SourceResponse(
            status: 403, body: Data(#"{"status":403,"error":"Invalid number of results"}"#.utf8))
        #expect(search.failure(for: window)?.message.contains("only the first 1,000 results") == true)
    }

    /// Found by a hostile check: one byte that is not UTF-8 lost its whole field (the maker, the subjects) with no
    /// word; an OAI-PMH page's become U+FFFD, with a note.
    @Test func `text that is not UTF-8 is read as U+FFFD, with a note, not dropped`() throws {
        var body = Data(#"{"pagination":{"total":1,"limit":3,"total_pages":1},"data":[{"id":1,"title":"T","#.utf8)
        body += Data(#""artist_title":"Ren"#.utf8) + Data([0xE9]) + Data(#" Magritte","#.utf8)
        body += Data(#""subject_titles":["Caf"#.utf8) + Data([0xE9, 0xFF]) + Data(#"","Tree"]}]}"#.utf8)
        let page = try source.decode(SourceResponse(status: 200, body: body), page: .number(1))
        guard case .object(let object) = page.records.first else {
            Issue.record("\(page.records)")
            return
        }
        #expect(object.maker == "Ren\u{FFFD} Magritte")
        #expect(object.details.subjects == ["Caf\u{FFFD}\u{FFFD}", "Tree"])
        #expect(page.notices.contains { $0.contains("3 pieces of text that is not UTF-8") }, "\(page.notices)")
        // A clean page gets no note.
        let clean = try source.decode(
            SourceResponse(status: 200, body: try Fixtures.data("aic", "artworks-page-1.json")), page: .number(1))
        #expect(!clean.notices.contains { $0.contains("UTF-8") })
    }

    /// Found by a hostile check: "null" was a title, a maker (with a section of its own) and a date, and with no
    /// `artist_title` the maker's life dates, on `artist_display`'s second line, became the maker.
    @Test func `null-like titles, makers and dates are none, and life dates never make a maker`() throws {
        let body = #"""
            {"pagination":{"total":2,"limit":3,"total_pages":1},"data":[
            {"id":1,"title":"null","artist_title":"null","date_display":" None ","artist_display":"null"},
            {"id":2,"title":"T","artist_title":"","artist_display":"\nFrench, 1800-1850"}]}
            """#
        let page = try source.decode(SourceResponse(status: 200, body: Data(body.utf8)), page: .number(1))
        guard case .object(let first) = page.records[0], case .object(let second) = page.records[1] else {
            Issue.record("\(page.records)")
            return
        }
        #expect(first.title == "" && first.maker == nil && first.date == nil)
        #expect(second.maker == nil && second.details.makers.isEmpty)
    }

    /// Found by a hostile check: a page that is a list read "field (record) is not of the expected type".
    @Test func `a page of another shape says so in words`() {
        let failure = #expect(throws: HarvestFailure.self) {
            try source.decode(SourceResponse(status: 200, body: Data("[1, 2]".utf8)), page: .number(1))
        }
        #expect(
            failure?.message.contains("the answer is not the JSON this API sends") == true,
            "\(String(describing: failure))")
    }

    /// Found by a hostile check: a maintenance page sent with 200 failed the run for good (exit 1).
    @Test func `a web page where JSON belongs is worth a retry, and says what came`() {
        let page = SourceResponse(status: 200, body: Data("<html><body>Down for maintenance</body></html>".utf8))
        let failure = #expect(throws: HarvestFailure.self) { try source.decode(page, page: .number(1)) }
        #expect(failure?.isTransient == true)
        #expect(failure?.message.contains("a web page came where JSON belongs") == true)
    }

    /// Found by a second hostile check: a page count far too high, a page size cut without saying so, counts as
    /// text, and ids that are empty.
    @Test func `counts are read as the pages show them, and an empty id is no record`() throws {
        func page(_ pagination: String, records: Int, asked: Int = 100) throws -> SourcePage {
            let data = (0..<records).map { #"{"id": \#($0 + 1), "title": "T"}"# }.joined(separator: ",")
            let body = #"{"pagination": {\#(pagination)}, "data": [\#(data)]}"#
            return try ArtInstituteSource(baseURL: url("http://127.0.0.1:9/api/v1"), pageSize: asked)
                .decode(SourceResponse(status: 200, body: Data(body.utf8)), page: .number(1))
        }
        #expect(
            try page(#""total": 250, "limit": 100, "total_pages": 1000"#, records: 100).continuation
                == .pageNumbers(lastPage: 3, limit: Int.max, pageSize: 100))
        #expect(
            try page(#""total": null, "total_pages": null"#, records: 50).continuation
                == .pageNumbers(lastPage: 1, limit: Int.max, pageSize: 50))
        #expect(
            try page(#""total": "250", "limit": "100", "total_pages": "3""#, records: 100).continuation
                == .pageNumbers(lastPage: 3, limit: Int.max, pageSize: 100))
        let empty = try ArtInstituteSource(baseURL: url("http://127.0.0.1:9/api/v1")).decode(
            SourceResponse(
                status: 200,
                body: Data(#"{"data": [{"id": "", "title": "A"}, {"id": "  ", "title": "B"}, {"id": " 7 "}]}"#.utf8)),
            page: .number(1))
        #expect(empty.records.count { if case .skipped = $0 { true } else { false } } == 2)
        let kept = empty.records.compactMap { if case .object(let object) = $0 { object.id } else { nil } }
        #expect(kept == ["7"])
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
