import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

/// The OAI-PMH source on recorded responses: the Rijksmuseum's EDM in both shapes, Dublin Core, errors, and a
/// document that tries to pull in an external entity.
@Suite struct OAIPMHSourceTests {
    private let source = OAIPMHSource(
        descriptor: RijksmuseumOAISource.descriptor, baseURL: url("http://127.0.0.1:9/oai"),
        metadataPrefix: "edm")

    private func page(_ name: String, status: Int = 200, source: OAIPMHSource? = nil) async throws -> SourcePage {
        let response = SourceResponse(status: status, body: try Fixtures.data("rijksmuseum-oai", name))
        return try await (source ?? self.source).decode(response, page: .token(nil))
    }

    private func objects(_ page: SourcePage) -> [ArtObject] {
        page.records.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    @Test func `Identify: the clock, its granularity, the earliest datestamp and the repository's own name`() throws {
        // The Rijksmuseum's answer, behind a processing instruction and a comment as some servers send it.
        let body = """
            <?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet type="text/xsl" href="oai2.xsl"?><!-- hi -->
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-11-27T10:00:00Z</responseDate>
            <request verb="Identify">http://127.0.0.1:9/oai</request><Identify>
            <repositoryName> Rijksmuseum OAI-PMH API </repositoryName><baseURL>http://127.0.0.1:9/oai</baseURL>
            <protocolVersion>2.0</protocolVersion><earliestDatestamp>2024-08-15T13:51:17Z</earliestDatestamp>
            <deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>
            </OAI-PMH>
            """
        let clock = try source.clock(from: SourceResponse(status: 200, body: Data(body.utf8)))
        #expect(
            clock
                == ServerClock(
                    now: "2026-11-27T10:00:00Z", daysOnly: false, earliest: "2024-08-15T13:51:17Z",
                    repositoryName: "Rijksmuseum OAI-PMH API"))
        let nameless = body.replacingOccurrences(of: " Rijksmuseum OAI-PMH API ", with: "")
        #expect(try source.clock(from: SourceResponse(status: 200, body: Data(nameless.utf8))).repositoryName == nil)
        // Only a repository that keeps its deletions lists them all among the changes.
        for (kept, misses) in [("persistent", false), ("transient", true), ("no", true), ("", true)] {
            let answer = body.replacingOccurrences(of: ">persistent<", with: ">\(kept)<")
            let clock = try source.clock(from: SourceResponse(status: 200, body: Data(answer.utf8)))
            #expect((clock.missesDeletions != nil) == misses, "\(kept)")
        }
    }

    @Test(arguments: [
        ("2026-01-10T01:00:00+01:00", "2026-01-10T00:00:00Z"), ("2026-01-10T01:00:00.250+0100", "2026-01-10T00:00:00Z"),
        ("2026-01-09T19:30:00-04:30", "2026-01-10T00:00:00Z"), ("2026-01-10T00:00:00Z", "2026-01-10T00:00:00Z"),
        ("2026-01-10T00:00:00", "2026-01-10T00:00:00Z"), ("2026-01-10T00:00:00+1", "2026-01-10T00:00:00Z"),
        ("2026-01-10", "2026-01-10T00:00:00Z"),
    ])
    func `a time with a zone offset is read as the instant it names`(written: String, utc: String) {
        #expect(Datestamp.seconds(written) == Datestamp.seconds(utc))
        #expect(Datestamp.normalized(written, daysOnly: false) == utc)
    }

    /// Found by a hostile check: a clock written otherwise went back to the server as it was, which a server
    /// comparing text reads as later than the changes of that day.
    @Test(arguments: [
        ("2024-06-01T12:00Z", "2024-06-01"), ("2024-06-01t12:00:00z", "2024-06-01"), ("soon", "soon"),
    ])
    func `a clock written otherwise asks from its day, never later`(written: String, sent: String) {
        #expect(Datestamp.normalized(written, daysOnly: false) == sent)
    }

    @Test func `flat EDM: references resolve inside the record, deleted headers are counted, the token read`()
        async throws
    {
        let page = try await page("edm-flat.xml")
        #expect(page.records.count == 5)
        // A deleted header carries its identifier: an incremental run removes that object from the store.
        #expect(
            page.records[1]
                == .deleted(recordID: "https://id.rijksmuseum.nl/200100001", datestamp: "2026-07-01T08:00:00Z"))
        // An unreadable record keeps its identifier: a night removes the version stored before.
        #expect(
            page.records[4]
                == .skipped(
                    reason: "https://id.rijksmuseum.nl/200000404 has no edm:ProvidedCHO",
                    recordID: "https://id.rijksmuseum.nl/200000404", datestamp: "2026-06-09T10:19:51Z"))
        #expect(page.continuation == .next(.token("eyJ0b2tlbiI6IDYzNzU0fQ+/x=")))
        #expect(page.reportedTotal == 843_943)
        // Found by a hostile check: a page cut short (a connection closed early, no length sent) failed the run at
        // once; it is a dropped answer, fetched again.
        let whole = try Fixtures.data("rijksmuseum-oai", "edm-flat.xml")
        for cut in [whole.count / 3, whole.count - 20] {
            let failure = await #expect(throws: HarvestFailure.self) {
                _ = try await source.decode(SourceResponse(status: 200, body: whole.prefix(cut)), page: .token(nil))
            }
            #expect(failure?.isTransient == true, "\(String(describing: failure))")
        }
        // What follows a closed root is no sign of a cut: padding, a control byte, a server's warning.
        for after in ["\n", "\0\u{1A}", "<!-- cached -->", "<b>Warning</b>: deprecated"] {
            #expect(!OAIPMHSource.isCutShort(whole + Data(after.utf8)), "\(after)")
        }
        // Found by a hostile check: `status="DELETED"` was read as a record with no metadata, a warning.
        let shouting = try Fixtures.data("rijksmuseum-oai", "edm-flat.xml")
        let upper = Data(
            String(decoding: shouting, as: UTF8.self)
                .replacingOccurrences(of: #"status="deleted""#, with: #"status=" DELETED""#).utf8)
        let read = try await source.decode(SourceResponse(status: 200, body: upper), page: .token(nil))
        #expect(read.records[1] == page.records[1])
        // Found by a hostile check: an answer in UTF-16 was retried as "text", and the run given up for later.
        let text = String(decoding: shouting, as: UTF8.self)
        let marks: [([UInt8], String.Encoding)] = [
            ([0xFF, 0xFE], .utf16LittleEndian), ([0xFE, 0xFF], .utf16BigEndian),
        ]
        for (mark, encoding) in marks {
            let declared = text.replacingOccurrences(of: #"encoding="UTF-8""#, with: #"encoding="UTF-16""#)
            let body = Data(mark as [UInt8]) + (declared.data(using: encoding) ?? Data())
            let wide = try await source.decode(SourceResponse(status: 200, body: body), page: .token(nil))
            #expect(wide == (try await source.decode(SourceResponse(status: 200, body: shouting), page: .token(nil))))
        }
        // A unit that pairs with nothing is one unreadable character, not an unreadable page.
        var lone = Data([0xFF, 0xFE])
        lone +=
            text.replacingOccurrences(of: "The Night Watch", with: "The Night Watch\u{1}")
            .data(using: .utf16LittleEndian) ?? Data()
        let placeholder = try #require(lone.range(of: Data([0x01, 0x00])))
        lone.replaceSubrange(placeholder, with: [0x00, 0xD8])
        let loneRead = try await source.decode(SourceResponse(status: 200, body: lone), page: .token(nil))
        #expect(objects(loneRead).first?.title == "The Night Watch\u{FFFD}")

        let objects = objects(page)
        let nightWatch = try #require(objects.first)
        #expect(nightWatch.id == "SK-C-5" && nightWatch.title == "The Night Watch")
        #expect(nightWatch.maker == "Rembrandt van Rijn" && nightWatch.date == "1642")
        #expect(nightWatch.objectURL == "https://www.rijksmuseum.nl/nl/collectie/SK-C-5")
        #expect(
            nightWatch.image
                == ImageReference(
                    url: "https://iiif.micr.io/PJEZO/full/max/0/default.jpg",
                    sizing: .iiif(service: "https://iiif.micr.io/PJEZO", cachedWidths: [])))
        // A Dutch-only title and an untagged, non-Latin label; dcterms:created in Dutch.
        #expect(objects[1].title == "De grote golf bij Kanagawa" && objects[1].maker == "葛飾北斎")
        #expect(objects[1].date == "c. 1830 - c. 1832")
        // No isShownBy: no image; no isShownAt: the record's URI; dc:date when there is no dcterms:created.
        #expect(objects[2].image == nil && objects[2].objectURL == "https://id.rijksmuseum.nl/200512066")
        #expect(objects[2].title == "Chair & footstool" && objects[2].date == "1920")
    }

    @Test func `nested EDM: the CHO inside the aggregation, the agent inside dc:creator; an empty token ends`()
        async throws
    {
        let page = try await page("edm-nested.xml")
        #expect(page.continuation == .end)
        let milkmaid = try #require(objects(page).first)
        #expect(milkmaid.id == "SK-A-2344" && milkmaid.title == "The Milkmaid" && milkmaid.maker == "Johannes Vermeer")
        #expect(milkmaid.image?.sizing == .iiif(service: "https://iiif.micr.io/cZHpQ", cachedWidths: []))
        #expect(
            ThumbnailSelector.thumbnail(for: try #require(milkmaid.image), width: 400).url
                == "https://iiif.micr.io/cZHpQ/full/400,/0/default.jpg")
    }

    @Test func `the language flag picks titles, falling back to English, Dutch, then any`() async throws {
        let dutch = OAIPMHSource(
            descriptor: RijksmuseumOAISource.descriptor, baseURL: source.baseURL, metadataPrefix: "edm", language: "nl")
        #expect(objects(try await page("edm-flat.xml", source: dutch)).first?.title == "De Nachtwacht")
        let french = OAIPMHSource(
            descriptor: RijksmuseumOAISource.descriptor, baseURL: source.baseURL, metadataPrefix: "edm", language: "fr")
        #expect(objects(try await page("edm-flat.xml", source: french)).first?.title == "The Night Watch")
    }

    @Test func `Dublin Core: the image from dc:relation or an image identifier, the role dropped from the maker`()
        async throws
    {
        let objects = objects(try await page("oai-dc.xml"))
        #expect(objects.count == 2)
        #expect(objects[0].id == "SK-C-5" && objects[0].maker == "Rembrandt van Rijn" && objects[0].date == "1642")
        #expect(objects[0].image?.sizing == .iiif(service: "https://iiif.micr.io/PJEZO", cachedWidths: []))
        #expect(objects[0].objectURL == "https://id.rijksmuseum.nl/200107928")
        #expect(objects[1].id == "ms-17" && objects[1].maker == nil)
        #expect(objects[1].image?.url == "https://library.example.org/images/ms-17.jpg")
        #expect(objects[1].objectURL == "https://library.example.org/items/ms-17")
    }

    @Test func `an OAI error sent with a 4xx status is read as an OAI error`() async throws {
        #expect(source.failure(for: SourceResponse(status: 400, body: Data("<?xml version=\"1.0\"?><x/>".utf8))) == nil)
        #expect(source.failure(for: SourceResponse(status: 503, body: Data())) != nil)
        let expired = try await page("error-badResumptionToken.xml", status: 400)
        #expect(
            expired.continuation
                == .expiredToken(
                    "the repository rejected the resumption token (badResumptionToken: The value of the "
                        + "resumptionToken argument is invalid or expired.) even after the list was started over; "
                        + "run the export again later, or narrow it with --from/--until"))
        // A token forgotten counts nothing; one answered with no records says the rest of the list holds none, which
        // ends a chain that read exactly what it counted.
        #expect(expired.reportedTotal == nil)
        let none = String(decoding: try Fixtures.data("rijksmuseum-oai", "error-badResumptionToken.xml"), as: UTF8.self)
            .replacingOccurrences(of: "badResumptionToken", with: "noRecordsMatch")
        let empty = try await source.decode(SourceResponse(status: 200, body: Data(none.utf8)), page: .token("t"))
        #expect(empty.continuation.isExpiredToken && empty.reportedTotal == 0)
    }

    @Test func `external entities are never resolved`() async throws {
        // Refusing the document is fine too; what must never happen is the file's text in a title.
        if let page = try? await page("external-entity.xml") {
            for object in objects(page) { #expect(!object.title.contains("root:")) }
        }
    }

    @Test func `tokens are sent alone and fully escaped; the first request names format, set and dates`() throws {
        let base = try #require(URL(string: "http://127.0.0.1:9/oai"))
        let source = OAIPMHSource(
            descriptor: RijksmuseumOAISource.descriptor, baseURL: base, metadataPrefix: "edm", set: "26121",
            from: "2026-01-01")
        #expect(
            try source.request(for: .token(nil)).url.absoluteString
                == "http://127.0.0.1:9/oai?verb=ListRecords&metadataPrefix=edm&set=26121&from=2026-01-01")
        #expect(
            try source.request(for: .token("a+b/c=")).url.absoluteString
                == "http://127.0.0.1:9/oai?verb=ListRecords&resumptionToken=a%2Bb%2Fc%3D")
    }

    /// Found by a new user's check: a day beside a second was sent as typed, and OAI-PMH takes one granularity for
    /// both (a strict repository answered `badArgument`).
    @Test(arguments: [
        ("2026-01-03", "2026-01-06T10:00:00Z", "from=2026-01-03T00:00:00Z&until=2026-01-06T10:00:00Z"),
        ("2026-01-03T10:00:00Z", "2026-01-06", "from=2026-01-03T10:00:00Z&until=2026-01-06T23:59:59Z"),
        ("2026-01-03", "2026-01-06", "from=2026-01-03&until=2026-01-06"),
    ])
    func `a day beside a second is asked for as seconds`(from: String, until: String, query: String) throws {
        let configuration = SourceConfiguration(
            source: .oai, baseURL: "http://127.0.0.1:9/oai", from: from, until: until)
        let environment = SourceEnvironment(variables: [:], http: StubTransport())
        let source = try OAIPMHSource.registration.make(configuration, environment).source
        let url = try source.request(for: .token(nil)).url.absoluteString
        #expect(url.hasSuffix(query.replacingOccurrences(of: ":", with: "%3A")), "\(url)")
    }

    @Test func `filters OAI-PMH cannot honour, a bad date and a missing base URL are refused`() throws {
        let refusals: [(SourceConfiguration, String)] = [
            (
                SourceConfiguration(source: .rijksmuseum, query: "Rembrandt"),
                "rijksmuseum: the rijksmuseum source cannot honour --query; it can filter by --set, --from, --until, --metadata-prefix, --language"
            ),
            (
                SourceConfiguration(source: .rijksmuseum, from: "2026-13-45"),
                "rijksmuseum: --from '2026-13-45' is not a UTC date: use YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ"
            ),
            (
                SourceConfiguration(source: .rijksmuseum, until: "2026-02-29T25:00:00Z"),
                "rijksmuseum: --until '2026-02-29T25:00:00Z' is not a UTC date: use YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ"
            ),
            (
                SourceConfiguration(source: .rijksmuseum, from: "12/01/2026"),
                "rijksmuseum: --from '12/01/2026' is not a UTC date: use YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ"
            ),
            (
                SourceConfiguration(source: .rijksmuseum, pageSize: 100),
                "rijksmuseum: OAI-PMH servers choose their own page size; leave out --page-size"
            ),
            (
                SourceConfiguration(source: .oai),
                "oai: the oai source needs --base-url, the repository's OAI-PMH address"
            ),
        ]
        let environment = SourceEnvironment(variables: [:], http: StubTransport())
        for (configuration, message) in refusals {
            let registration =
                configuration.source == .oai ? OAIPMHSource.registration : RijksmuseumOAISource.registration
            #expect(throws: ExportError.self) { _ = try registration.make(configuration, environment) }
            do {
                _ = try registration.make(configuration, environment)
            } catch {
                #expect(error.description == message)
            }
        }
    }
}

/// How many date windows a repository is asked for at once (issue 14).
@Suite struct ChainCeilingTests {
    @Test func `the Rijksmuseum's data service gets at most 4 chains at once, other repositories no ceiling`() throws {
        let museum = RijksmuseumOAISource.descriptor
        let rijksmuseum = OAIPMHSource(
            descriptor: museum, baseURL: try #require(URL(string: "https://data.rijksmuseum.nl/oai")),
            metadataPrefix: "edm")
        #expect(rijksmuseum.chainCeiling == 4)
        let other = OAIPMHSource(
            descriptor: museum, baseURL: try #require(URL(string: "https://repository.example.edu/oai")),
            metadataPrefix: "oai_dc")
        #expect(other.chainCeiling == Int.max)
    }
}
