import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

@Suite struct RijksmuseumLegacySourceTests {
    private let source = RijksmuseumLegacySource(
        baseURL: url("http://127.0.0.1:1/api"), culture: "en", key: "s3cret", pageSize: 5)

    private func decode(_ page: Int) throws -> SourcePage {
        try source.decode(
            SourceResponse(status: 200, body: Fixtures.data("rijksmuseum-legacy", "page-\(page).json")),
            page: .number(page))
    }

    @Test func `requests carry key, page, size and artist order; the redacted URL hides the key`() throws {
        let request = try source.request(for: .number(3))
        #expect(
            request.url.absoluteString
                == "http://127.0.0.1:1/api/en/collection?key=s3cret&format=json&p=3&ps=5&s=artist")
        #expect(request.redactedURL == "http://127.0.0.1:1/api/en/collection?key=***&format=json&p=3&ps=5&s=artist")
    }

    @Test func `a page maps objectNumber, title, maker, date, image and link`() throws {
        let page = try decode(0)
        guard case .object(let fokke) = page.records[3], case .object(let bernard) = page.records[2] else {
            Issue.record("expected objects")
            return
        }
        #expect(fokke.id == "RP-P-1906-2" && fokke.title == "View of the Dam" && fokke.maker == "Simon Fokke")
        #expect(fokke.date == "1760")
        #expect(fokke.objectURL == "https://www.rijksmuseum.nl/en/collection/RP-P-1906-2")
        #expect(
            fokke.image
                == ImageReference(
                    url: "https://lh3.googleusercontent.com/RPP19062abc=s0", width: 4000,
                    height: 3000, sizing: .googleImageHost))
        #expect(bernard.image?.url == "https://lh3.googleusercontent.com/SKA4118abc")
        #expect(page.reportedTotal == 14)
        // count 14 at 5 a page: pages 0…3 cover it whether the server counts from 0 or 1.
        #expect(page.continuation == .pageNumbers(lastPage: 3, limit: 2000, pageSize: 5))
    }

    /// Found by a hostile check: 8 of 10 records with one field of another type were skipped, and a count that
    /// was missing, 0 or text ended the list after its first page.
    @Test func `fields of another type are read or dropped alone; a count missing or as text pages on`() throws {
        let records = """
            [{"objectNumber": 7, "title": 1642, "principalOrFirstMaker": "Jan Steen", "hasImage": "true",
              "showImage": "yes", "webImage": {"url": "https://lh3.googleusercontent.com/x", "width": "4487",
              "height": 4000.5}, "links": {"web": 5}, "longTitle": {"a": 1}}]
            """
        for (count, continuation) in [
            // No count: the next page too (a server counting from 1 answers p=0 and p=1 alike).
            ("", Continuation.pageNumbers(lastPage: 1, limit: 2000, pageSize: 5)),
            (#""count": 0,"#, .pageNumbers(lastPage: 1, limit: 2000, pageSize: 5)),
            (#""count": "12","#, .pageNumbers(lastPage: 3, limit: 2000, pageSize: 5)),
        ] {
            let body = Data("{\(count) \"artObjects\": \(records)}".utf8)
            let page = try source.decode(SourceResponse(status: 200, body: body), page: .number(0))
            #expect(page.continuation == continuation, "\(count)")
            guard case .object(let object) = page.records.first else {
                Issue.record("expected the record, got \(page.records)")
                continue
            }
            #expect(object.id == "7" && object.title == "1642" && object.objectURL == "5")
            #expect(object.image?.url == "https://lh3.googleusercontent.com/x" && object.image?.width == 4487)
        }
        // A huge count pages to the API's window, not past the end of the numbers.
        let huge = Data(#"{"count": 9223372036854775807, "artObjects": []}"#.utf8)
        #expect(
            try source.decode(SourceResponse(status: 200, body: huge), page: .number(0)).continuation
                == .pageNumbers(lastPage: 2000, limit: 2000, pageSize: 5))
    }

    @Test func `null webImage falls back to the header image, else no image; a broken record is skipped`() throws {
        let page = try decode(2)
        let objects = page.records.compactMap { if case .object(let object) = $0 { object } else { nil } }
        #expect(objects[1].image?.url == "https://lh3.googleusercontent.com/ALLhdr=s0")
        #expect(objects[3].image == nil && objects[3].maker == "anoniem")
        #expect(objects[4].maker == "" && objects[4].date == nil)
        // An objectNumber that is an object names nothing: the record is skipped.
        #expect(try decode(1).records[2] == .skipped(reason: "no objectNumber"))
    }

    @Test(arguments: [
        (401, "the Rijksmuseum API refused the key (HTTP 401): check --key or RIJKSMUSEUM_API_KEY"),
        (
            410,
            "the Rijksmuseum has retired this API (HTTP 410 Gone): use --source rijksmuseum for its OAI-PMH service, or --base-url for a mirror"
        ),
        (500, "the server answered HTTP 500: \"Invalid key\""),
    ])
    func `HTTP failures say what to do`(status: Int, message: String) {
        let failure = source.failure(for: SourceResponse(status: status, body: Data(#""Invalid key""#.utf8)))
        #expect(failure?.message == message)
        #expect(source.failure(for: SourceResponse(status: 200, body: Data())) == nil)
    }

    @Test func `past 10,000 results the rest is reported out of reach`() throws {
        let body = Data(#"{"count":812345,"artObjects":[]}"#.utf8)
        let page = try RijksmuseumLegacySource(baseURL: url("http://x"), key: nil, pageSize: 100)
            .decode(SourceResponse(status: 200, body: body), page: .number(0))
        #expect(page.continuation == .pageNumbers(lastPage: 100, limit: 100, pageSize: 100))
        #expect(
            page.notices == [
                "the API reports 812,345 objects but serves only the first 10,000 (p × ps ≤ 10,000); use --source rijksmuseum (OAI-PMH) for the whole collection"
            ])
    }

    @Test func `a page that is not JSON cannot be read`() throws {
        let body = try Fixtures.data("rijksmuseum-legacy", "broken-page.html")
        #expect(throws: HarvestFailure.self) {
            try source.decode(SourceResponse(status: 200, body: body), page: .number(0))
        }
    }

    @Test func `the key comes from --key or RIJKSMUSEUM_API_KEY, and is required for the museum's own host`() throws {
        let fromEnvironment = try RijksmuseumLegacySource(
            SourceConfiguration(source: .rijksmuseumLegacy), environment: ["RIJKSMUSEUM_API_KEY": "env-key"])
        #expect(fromEnvironment.key == "env-key")
        #expect(fromEnvironment.baseURL.absoluteString == "https://www.rijksmuseum.nl/api")
        let error = #expect(throws: ExportError.self) {
            try RijksmuseumLegacySource(SourceConfiguration(source: .rijksmuseumLegacy), environment: [:])
        }
        #expect(
            error?.description
                == "rijksmuseum-legacy: the Rijksmuseum API needs a key: pass --key or set RIJKSMUSEUM_API_KEY")
        #expect(throws: ExportError.self) {
            try RijksmuseumLegacySource(
                SourceConfiguration(source: .rijksmuseumLegacy, key: "k", pageSize: 101), environment: [:])
        }
    }

    @Test func `URL redaction hides every credential parameter`() {
        #expect(
            URLRedaction.redact("https://a.example/x?key=abc&p=1&client_id=zz#f")
                == "https://a.example/x?key=***&p=1&client_id=***#f")
        #expect(URLRedaction.redact("https://a.example/x") == "https://a.example/x")
        #expect(
            URLRedaction.redact("https://u:p@a.example:8/x?ApiKey=1&Token&tokens=2&=key&p=a%26b&secret=#key=f")
                == "https://***@a.example:8/x?ApiKey=***&Token=***&tokens=2&=key&p=a%26b&secret=***#key=f")
        #expect(URLRedaction.redact("https://a.example/x?") == "https://a.example/x?")
        #expect(URLRedaction.redact("https://a.example/x?&&key=k&") == "https://a.example/x?&&key=***&")
    }
}
