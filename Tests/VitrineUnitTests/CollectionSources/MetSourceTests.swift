import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineSources

@Suite struct MetSourceTests {
    private let base = "http://127.0.0.1:9/public/collection"
    private let source = MetSource(baseURL: url("http://127.0.0.1:9/public/collection"))

    private func decode(_ name: String, status: Int = 200, page: PageCursor) throws -> SourcePage {
        let response = SourceResponse(status: status, body: try Fixtures.data("met", name))
        if let failure = source.failure(for: response) { throw failure }
        return try source.decode(response, page: page)
    }

    @Test func `an object maps maker, date, both renditions and its page`() async throws {
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

    @Test func `a work in copyright with no images has none; a 404 id is skipped; a null id list is empty`()
        async throws
    {
        let copyrighted = try decode("object-in-copyright.json", page: .object("488978"))
        guard case .object(let kahlo) = copyrighted.records.first else {
            Issue.record("expected an object")
            return
        }
        #expect(kahlo.image == nil && kahlo.maker == "Frida Kahlo")
        await #expect(
            try decode("not-found.json", status: 404, page: .object("1")).records
                == [.skipped(reason: "object 1: ObjectID not found (HTTP 404)", recordID: "1")])
        #expect(try decode("search-nothing.json", page: .number(0)).continuation == .end)
        // Found by a hostile check: one id of another type failed the whole list; a search page that holds fewer
        // ids than asked for goes on from what it held.
        let list = try MetSource(baseURL: url("http://127.0.0.1:9")).decode(
            SourceResponse(status: 200, body: Data(#"{"total":5,"objectIDs":[1,null,3.5,true,{},"7"]}"#.utf8)),
            page: .token(nil))
        #expect(list.continuation == .objects(["1", "7"], next: nil, pageSize: 100))
        let search = try MetSource(baseURL: url("http://127.0.0.1:9"), query: "cat").decode(
            SourceResponse(status: 200, body: Data(#"{"total":1200,"objectIDs":[1,2,3]}"#.utf8)), page: .number(0))
        #expect(search.continuation == .objects(["1", "2", "3"], next: .number(3), pageSize: 100))
        await #expect(
            try decode("objects.json", page: .token(nil)).continuation
                == .objects(["1", "2", "3", "436535", "436536"], next: nil, pageSize: 100))
    }

    /// Found by a hostile check: a lone surrogate's escape in a title made the object "Untitled".
    @Test func `escapes of lone surrogates are read as U+FFFD; pairs and escaped backslashes stay`() throws {
        let body = #"{"objectID":7,"title":"A\ud800B \udc00 \ud83d\ude00 \\ud800 \uD800","artistDisplayName":"M"}"#
        let page = try source.decode(SourceResponse(status: 200, body: Data(body.utf8)), page: .object("7"))
        guard case .object(let object) = page.records.first else {
            Issue.record("\(page.records)")
            return
        }
        #expect(object.title == "A\u{FFFD}B \u{FFFD} 😀 \\ud800 \u{FFFD}")
        #expect(page.notices.contains { $0.contains("3 pieces of text") }, "\(page.notices)")
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

    /// Found by a hostile check: an object answered with JSON `null` was taken for the bot protection, and the
    /// whole export stopped (exit 75).
    @Test func `an object answered with null is skipped, and the harvest goes on`() throws {
        for body in ["null", " null\n", "true"] {
            let page = try source.decode(SourceResponse(status: 200, body: Data(body.utf8)), page: .object("6"))
            guard case .skipped(let reason, _, _) = page.records.first else {
                Issue.record("\(page.records)")
                continue
            }
            #expect(reason.hasPrefix("object 6: "), "\(reason)")
        }
        #expect(throws: HarvestFailure.self) {
            try source.decode(SourceResponse(status: 200, body: Data("nullified".utf8)), page: .object("6"))
        }
        // Found by a hostile check: another object's answer took that object's place.
        let other = try source.decode(
            SourceResponse(status: 200, body: Data(#"{"objectID":1,"title":"One"}"#.utf8)), page: .object("6"))
        // Skipped by its id: a night drops the stored copy, as a fresh export would not have it.
        #expect(other.records == [.skipped(reason: "object 6: the Met answered with object 1", recordID: "6")])
    }

    /// Found by a hostile check: numbers where the Met writes text were dropped (SOURCES.md says a number is read as
    /// its digits), and a constituent with a numeric role lost its maker, the object filed under the next one.
    @Test func `numbers sent for text are read as their digits, and a bad member loses only itself`() throws {
        let body = #"""
            {"objectID":6,"title":"T","medium":5,"creditLine":1999,"dimensions":12.5,"artistBeginDate":1853,
            "artistEndDate":1890,"artistDisplayName":"","constituents":[{"name":"Jan Six","role":1},{"name":"Pub"}],
            "tags":[{"term":42},{"term":"Boats"}]}
            """#
        let page = try source.decode(SourceResponse(status: 200, body: Data(body.utf8)), page: .object("6"))
        guard case .object(let object) = page.records.first else {
            Issue.record("\(page.records)")
            return
        }
        #expect(object.details.materials == ["5"] && object.details.creditLine == "1999")
        #expect(object.details.dimensions == "12.5")
        #expect(object.maker == "Jan Six" && object.details.makers.map(\.name) == ["Jan Six", "Pub"])
        #expect(object.details.subjects == ["42", "Boats"])
    }

    /// Found by a hostile check: `--language nl` was taken and ignored by sources that answer in English only.
    @Test func `a language other than English is refused by a source that has no other`() throws {
        let error = #expect(throws: ExportError.self) {
            _ = try MetSource(SourceConfiguration(source: .met, baseURL: base, language: "nl"))
        }
        #expect(
            error?.description == "met: the met source cannot honour --language; it can filter by --query, "
                + "--artist, --department")
        for english in ["EN", "en-US", "en-GB"] {
            _ = try MetSource(SourceConfiguration(source: .met, baseURL: base, language: english))
        }
    }

    @Test func `departments, searches and their combinations build the right requests`() throws {
        let department = try MetSource(SourceConfiguration(source: .met, baseURL: base, department: "1, 3,9"))
        #expect(
            try department.request(for: .token(nil)).url.absoluteString
                == "http://127.0.0.1:9/public/collection/v1/objects?departmentIds=1%7C3%7C9")
        let artist = try MetSource(SourceConfiguration(source: .met, baseURL: base, artist: "Vincent van Gogh"))
        #expect(
            try artist.request(for: .number(500)).url.absoluteString
                == "http://127.0.0.1:9/public/collection/v1.1/search?q=Vincent%20van%20Gogh&artistOrCulture=true&hasImages=true&offset=500&limit=500"
        )
        #expect(try artist.request(for: .object("436535")).url.path.hasSuffix("/v1/objects/436535"))
        #expect(throws: ExportError.self) {
            _ = try MetSource(SourceConfiguration(source: .met, query: "a", artist: "b"))
        }
        #expect(throws: ExportError.self) {
            _ = try MetSource(SourceConfiguration(source: .met, department: "Paintings"))
        }
    }

    /// Found by a hostile check: a search whose `total` was too low stopped there, though its pages came back full.
    @Test func `a full page of search results leads on, whatever the total says`() throws {
        let search = try MetSource(SourceConfiguration(source: .met, baseURL: base, query: "x"))
        func next(total: Int, ids: Int, at offset: Int) throws -> PageCursor? {
            let body = #"{"total": \#(total), "objectIDs": [\#((1...ids).map(String.init).joined(separator: ","))]}"#
            let page = try search.decode(SourceResponse(status: 200, body: Data(body.utf8)), page: .number(offset))
            guard case .objects(_, let next, _) = page.continuation else { return nil }
            return next
        }
        #expect(try next(total: 700, ids: 500, at: 500) == .number(1_000))
        #expect(try next(total: 700, ids: 200, at: 500) == nil)
        #expect(try next(total: 20_000, ids: 500, at: 9_500) == nil)
    }
}

/// Recorded shapes from the live API (issue 12, fixtures).
@Suite struct MetRecordedShapesTests {
    /// Rights on every object (issue 36): a work the Met says is not public domain, with no statement of its own, is
    /// shown as such, never as "no rights given".
    @Test func `a work not in the public domain says so, with its statement where the Met gives one`() throws {
        let source = MetSource(baseURL: url("http://127.0.0.1:9"))
        let stated = try Fixtures.data("met", "object-in-copyright.json")
        let unstated = Data(
            String(decoding: stated, as: UTF8.self).replacingOccurrences(of: "© 2024 Banco de México", with: "").utf8)
        var rights: [Rights?] = []
        for body in [stated, unstated] {
            let page = try source.decode(SourceResponse(status: 200, body: body), page: .object("488978"))
            guard case .object(let object) = page.records.first else { continue }
            rights.append(object.details.rights)
        }
        #expect(rights == [Rights(url: nil, label: "© 2024 Banco de México", isOpen: false), .notPublicDomain])
    }

    @Test func `constituents null and CR LF in fields give a clean object in its maker's section`() async throws {
        let source = MetSource(baseURL: url("http://127.0.0.1:9"))
        let body = try Fixtures.data("met", "object-constituents-null-crlf.json")
        let page = try source.decode(SourceResponse(status: 200, body: body), page: .object("11417"))
        guard case .object(let object) = page.records.first else {
            Issue.record("expected an object, got \(page.records)")
            return
        }
        #expect(object.id == "11417")
        var index = SectionIndex()
        index.insert(object, at: SectionIndex.Place(page: 0, position: 0))
        index.insert(
            ArtObject(id: "1", title: "Other", maker: "Emanuel Leutze"), at: SectionIndex.Place(page: 0, position: 1))
        #expect(index.sections().map(\.maker) == ["Emanuel Leutze"])
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(
                response: Seeds.response(index.sections()))
        #expect(model.sections.first?.objects.first?.title == "Washington Crossing the Delaware, first version")
    }
}
