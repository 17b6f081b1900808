import Foundation
import Testing

@testable import VitrineCore
@testable import VitrineSources

/// The OAI-PMH source on recorded responses: the Rijksmuseum's EDM in both shapes, Dublin Core, errors, and a
/// document that tries to pull in an external entity.
@Suite struct OAIPMHSourceTests {
    private let source = OAIPMHSource(
        descriptor: RijksmuseumOAISource.descriptor, baseURL: url("http://127.0.0.1:9/oai"),
        metadataPrefix: "edm")

    private func page(_ name: String, status: Int = 200, source: OAIPMHSource? = nil) throws -> SourcePage {
        let response = SourceResponse(status: status, body: try Fixtures.data("rijksmuseum-oai", name))
        return try (source ?? self.source).decode(response, page: .token(nil))
    }

    private func objects(_ page: SourcePage) -> [ArtObject] {
        page.records.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    @Test func `flat EDM: references resolve inside the record, deleted headers are counted, the token read`()
        throws
    {
        let page = try page("edm-flat.xml")
        #expect(page.records.count == 5)
        #expect(page.records[1] == .deleted)
        #expect(page.records[4] == .skipped(reason: "https://id.rijksmuseum.nl/200000404 has no edm:ProvidedCHO"))
        #expect(page.continuation == .next(.token("eyJ0b2tlbiI6IDYzNzU0fQ+/x=")))
        #expect(page.reportedTotal == 843_943)

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
        throws
    {
        let page = try page("edm-nested.xml")
        #expect(page.continuation == .end)
        let milkmaid = try #require(objects(page).first)
        #expect(milkmaid.id == "SK-A-2344" && milkmaid.title == "The Milkmaid" && milkmaid.maker == "Johannes Vermeer")
        #expect(milkmaid.image?.sizing == .iiif(service: "https://iiif.micr.io/cZHpQ", cachedWidths: []))
        #expect(
            ThumbnailSelector.thumbnail(for: try #require(milkmaid.image), width: 400).url
                == "https://iiif.micr.io/cZHpQ/full/400,/0/default.jpg")
    }

    @Test func `the language flag picks titles, falling back to English, Dutch, then any`() throws {
        let dutch = OAIPMHSource(
            descriptor: RijksmuseumOAISource.descriptor, baseURL: source.baseURL, metadataPrefix: "edm", language: "nl")
        #expect(objects(try page("edm-flat.xml", source: dutch)).first?.title == "De Nachtwacht")
        let french = OAIPMHSource(
            descriptor: RijksmuseumOAISource.descriptor, baseURL: source.baseURL, metadataPrefix: "edm", language: "fr")
        #expect(objects(try page("edm-flat.xml", source: french)).first?.title == "The Night Watch")
    }

    @Test func `Dublin Core: the image from dc:relation or an image identifier, the role dropped from the maker`()
        throws
    {
        let objects = objects(try page("oai-dc.xml"))
        #expect(objects.count == 2)
        #expect(objects[0].id == "SK-C-5" && objects[0].maker == "Rembrandt van Rijn" && objects[0].date == "1642")
        #expect(objects[0].image?.sizing == .iiif(service: "https://iiif.micr.io/PJEZO", cachedWidths: []))
        #expect(objects[0].objectURL == "https://id.rijksmuseum.nl/200107928")
        #expect(objects[1].id == "ms-17" && objects[1].maker == nil)
        #expect(objects[1].image?.url == "https://library.example.org/images/ms-17.jpg")
        #expect(objects[1].objectURL == "https://library.example.org/items/ms-17")
    }

    @Test func `an OAI error sent with a 4xx status is read as an OAI error`() throws {
        #expect(source.failure(for: SourceResponse(status: 400, body: Data("<?xml version=\"1.0\"?><x/>".utf8))) == nil)
        #expect(source.failure(for: SourceResponse(status: 503, body: Data())) != nil)
        #expect(
            throws: HarvestFailure.expiredResumption(
                "the repository rejected the resumption token (badResumptionToken: The value of the resumptionToken "
                    + "argument is invalid or expired.); tokens expire: run the export again (with the page cache "
                    + "it starts over from the first page)")
        ) {
            try page("error-badResumptionToken.xml", status: 400)
        }
    }

    @Test func `external entities are never resolved`() throws {
        let outcome = Result { try page("external-entity.xml") }
        if case .success(let page) = outcome {
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

    @Test func `filters OAI-PMH cannot honour, a bad date and a missing base URL are refused`() throws {
        let refusals: [(SourceConfiguration, String)] = [
            (
                SourceConfiguration(source: .rijksmuseum, query: "Rembrandt"),
                "rijksmuseum: the rijksmuseum source cannot honour --query; it can filter by --set, --from, --until, --metadata-prefix"
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
        for (configuration, message) in refusals {
            #expect(throws: ExportError.self) {
                _ = try SourceRegistry.make(configuration, environment: [:], http: StubTransport())
            }
            do {
                _ = try SourceRegistry.make(configuration, environment: [:], http: StubTransport())
            } catch {
                #expect(error.description == message)
            }
        }
    }
}

@Suite struct OAIPMHPageParserTests {
    @Test func `attribute values and text come back unescaped exactly once`() throws {
        let xml = """
            <?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>\
            <record><header><identifier>a&amp;b</identifier></header><metadata>\
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/" \
            xmlns:edm="http://www.europeana.eu/schemas/edm/">\
            <edm:ProvidedCHO rdf:about="https://h/?a=1&amp;b=2&amp;amp;c&#233;">\
            <dc:title xml:lang="e&amp;n">T&amp;amp;<![CDATA[<raw>]]></dc:title></edm:ProvidedCHO></rdf:RDF></metadata></record>\
            <resumptionToken completeListSize="9">t&amp;1</resumptionToken></ListRecords></OAI-PMH>
            """
        let response = try OAIPMHPageParser.parse(Data(xml.utf8))
        let record = try #require(response.records.first)
        #expect(record.identifier == "a&b")
        #expect(record.fields.format == .edm)
        #expect(record.fields.about == "https://h/?a=1&b=2&amp;cé")
        #expect(record.fields.titles == [LabelledText("T&amp;<raw>", language: "e&n")])
        #expect(response.resumptionToken == "t&1" && response.completeListSize == 9)
    }

    @Test func `only the fields mappers read are collected, wherever EDM puts them`() throws {
        for name in ["edm-flat.xml", "edm-nested.xml"] {
            let response = try OAIPMHPageParser.parse(try Fixtures.data("rijksmuseum-oai", name))
            let fields = try #require(response.records.first?.fields, "\(name)")
            #expect(fields.format == .edm && fields.hasProvidedCHO, "\(name)")
            #expect(!fields.identifiers.isEmpty && !fields.titles.isEmpty, "\(name)")
            #expect(fields.isShownBy?.value?.hasPrefix("https://iiif.micr.io/") == true, "\(name)")
            let url = try #require(fields.isShownBy?.value)
            #expect(fields.service(of: url)?.hasPrefix("https://iiif.micr.io/") == true, "\(name)")
            #expect(fields.creators.count >= 1 && !fields.agents.isEmpty, "\(name)")
        }
        let other = """
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords><record><header>\
            <identifier>x</identifier></header><metadata><mods xmlns="http://www.loc.gov/mods/v3">\
            <title>skipped</title></mods></metadata></record></ListRecords></OAI-PMH>
            """
        let record = try #require(try OAIPMHPageParser.parse(Data(other.utf8)).records.first)
        #expect(record.fields.format == .other("mods") && record.fields.titles.isEmpty)
    }

    @Test func `malformed XML says where`() {
        #expect(throws: OAIPMHParseError.self) {
            try OAIPMHPageParser.parse(Data("<OAI-PMH xmlns=\"http://www.openarchives.org/OAI/2.0/\"><a></b>".utf8))
        }
        #expect(throws: OAIPMHParseError.self) { try OAIPMHPageParser.parse(Data("<html>no</html>".utf8)) }
    }
}

@Suite struct OAIPMHPeekTests {
    private let source = OAIPMHSource(
        descriptor: RijksmuseumOAISource.descriptor, baseURL: url("http://127.0.0.1:9/oai"),
        metadataPrefix: "edm")

    @Test(arguments: [
        (
            #"<x/><resumptionToken completeListSize="9" cursor="0">a+b/c&amp;d</resumptionToken></ListRecords>"#,
            "a+b/c&d"
        ),
        (#"<oai:resumptionToken>t1</oai:resumptionToken></oai:ListRecords>"#, "t1"),
        (#"<resumptionToken completeListSize="9"/></ListRecords>"#, nil),
        (#"<resumptionToken completeListSize="9"></resumptionToken>"#, nil),
        (#"<record>no token</record>"#, nil),
    ])
    func `the next token is found in the raw page, or nothing is guessed`(tail: String, token: String?) {
        let response = SourceResponse(status: 200, body: Data(("<OAI-PMH>" + tail + "</OAI-PMH>").utf8))
        #expect(source.peekNext(response) == token.map { .token($0) })
    }

    @Test func `every page of the fixtures peeks what it decodes`() throws {
        for name in ["edm-flat.xml", "edm-nested.xml", "oai-dc.xml"] {
            let response = SourceResponse(status: 200, body: try Fixtures.data("rijksmuseum-oai", name))
            let decoded = try source.decode(response, page: .token(nil)).continuation
            #expect(source.peekNext(response).map { Continuation.next($0) } ?? .end == decoded, "\(name)")
        }
    }
}
