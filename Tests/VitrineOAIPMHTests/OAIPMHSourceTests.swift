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

    @Test func `flat EDM: references resolve inside the record, deleted headers are counted, the token read`()
        async throws
    {
        let page = try await page("edm-flat.xml")
        #expect(page.records.count == 5)
        // A deleted header carries its identifier: an incremental run removes that object from the store.
        #expect(page.records[1] == .deleted(recordID: "https://id.rijksmuseum.nl/200100001"))
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
                        + "resumptionToken argument is invalid or expired.); tokens expire: run the export again "
                        + "(with the page cache it starts over from the first page)"))
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

    @Test func `filters OAI-PMH cannot honour, a bad date and a missing base URL are refused`() throws {
        let refusals: [(SourceConfiguration, String)] = [
            (
                SourceConfiguration(source: .rijksmuseum, query: "Rembrandt"),
                "rijksmuseum: the rijksmuseum source cannot honour --query; it can filter by --set, --from, --until, --metadata-prefix"
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
        let fields = record.fields
        #expect(fields.string(fields.about) == "https://h/?a=1&b=2&amp;cé")
        #expect(fields.titles.count == 1)
        #expect(fields.string(fields.titles.first?.text) == "T&amp;<raw>")
        #expect(fields.string(fields.titles.first?.language) == "e&n")
        #expect(response.resumptionToken == "t&1" && response.completeListSize == 9)
    }

    @Test func `only the fields mappers read are collected, wherever EDM puts them`() throws {
        for name in ["edm-flat.xml", "edm-nested.xml"] {
            let response = try OAIPMHPageParser.parse(try Fixtures.data("rijksmuseum-oai", name))
            let fields = try #require(response.records.first?.fields, "\(name)")
            #expect(fields.format == .edm && fields.hasProvidedCHO, "\(name)")
            #expect(!fields.identifiers.isEmpty && !fields.titles.isEmpty, "\(name)")
            let url = try #require(fields.isShownBy?.value, "\(name)")
            #expect(fields.string(url).hasPrefix("https://iiif.micr.io/"), "\(name)")
            #expect(fields.string(fields.service(of: url))?.hasPrefix("https://iiif.micr.io/") == true, "\(name)")
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

    @Test(arguments: [1, 7, 64, 1_000, 16 << 10])
    func `a page read in slices reads exactly as a whole page, wherever the slices cut`(slice: Int) async throws {
        let mapper = OAIRecordMapper(language: "en")
        for name in ["edm-flat.xml", "edm-nested.xml", "oai-dc.xml", "error-badResumptionToken.xml"] {
            let data = try Fixtures.data("rijksmuseum-oai", name)
            let whole = try OAIPMHPageParser.parse(data, mapper: mapper)
            #expect(try await OAIPMHPageParser.parse(data, mapper: mapper, yieldingEvery: slice) == whole, "\(name)")
            let fields = try await OAIPMHPageParser.parse(data, yieldingEvery: slice)
            #expect(fields == (try OAIPMHPageParser.parse(data)), "\(name)")
        }
        // Entities, character references, CDATA and multi-byte characters cut in the middle.
        let escaped = Data(
            """
            <?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>\
            <record><header><identifier>a&amp;b</identifier></header><metadata>\
            <oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">\
            <dc:identifier>SK-&#65;-1</dc:identifier><dc:title>Ça &lt;va&gt; <![CDATA[<b>bien</b>]]> — 日本</dc:title>\
            </oai_dc:dc></metadata></record></ListRecords></OAI-PMH>
            """.utf8)
        let sliced = try await OAIPMHPageParser.parse(escaped, mapper: mapper, yieldingEvery: slice)
        #expect(
            sliced.outcomes.first.flatMap { if case .object(let object) = $0 { object.title } else { nil } }
                == "Ça <va> <b>bien</b> — 日本")
        #expect(sliced == (try OAIPMHPageParser.parse(escaped, mapper: mapper)))
    }

    @Test func `a page read in slices lets other tasks run between the slices`() async throws {
        // One thread for both tasks: the probe can run only when the parse gives way.
        let executor = SerialQueueExecutor()
        let fixture = String(decoding: try Fixtures.data("rijksmuseum-oai", "edm-flat.xml"), as: UTF8.self)
        let start = try #require(fixture.range(of: "<record>")?.lowerBound)
        let end = try #require(fixture.range(of: "</record>")?.upperBound)
        let page = Data(
            (#"<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>"#
                + String(repeating: String(fixture[start..<end]), count: 100) + "</ListRecords></OAI-PMH>").utf8)
        let turns = TurnCounter()
        let (before, after, objects) = try await withTaskExecutorPreference(executor) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        turns.add()
                        await Task.yield()
                    }
                }
                let before = turns.value
                let parsed = try await OAIPMHPageParser.parse(
                    page, mapper: OAIRecordMapper(language: "en"), yieldingEvery: 4_096)
                let after = turns.value
                group.cancelAll()
                return (before, after, parsed.outcomes.count)
            }
        }
        #expect(objects == 100)
        #expect(page.count / 4_096 >= 20)
        #expect(after - before >= 10, "the probe ran \(after - before) times while \(page.count) bytes were read")
    }

    @Test func `malformed XML read in slices says where, too`() async {
        let broken = Data(
            ("<OAI-PMH xmlns=\"http://www.openarchives.org/OAI/2.0/\"><ListRecords>\n"
                + String(repeating: "<record><header><identifier>x</identifier></header></record>\n", count: 50)
                + "<record></header></ListRecords></OAI-PMH>").utf8)
        let error = await #expect(throws: OAIPMHParseError.self) {
            try await OAIPMHPageParser.parse(broken, yieldingEvery: 100)
        }
        #expect(error?.text.hasPrefix("malformed XML at line 52:") == true, "\(error?.text ?? "no error")")
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
        // The last page: its request echo names the token it was asked with; that is no next page.
        (#"<request verb="ListRecords" resumptionToken="abc">https://h/oai</request><ListRecords/>"#, nil),
        (#"<resumptionToken>t&#43;1&#x2F;2</resumptionToken>"#, "t+1/2"),
        (#"<resumptionTokens>x</resumptionTokens>"#, nil),
    ])
    func `the next token is found in the raw page, or nothing is guessed`(tail: String, token: String?) {
        let response = SourceResponse(status: 200, body: Data(("<OAI-PMH>" + tail + "</OAI-PMH>").utf8))
        #expect(source.peekNext(response) == token.map { .token($0) })
    }

    @Test func `every page of the fixtures peeks what it decodes`() async throws {
        for name in ["edm-flat.xml", "edm-nested.xml", "oai-dc.xml"] {
            let response = SourceResponse(status: 200, body: try Fixtures.data("rijksmuseum-oai", name))
            let decoded = try await source.decode(response, page: .token(nil)).continuation
            #expect(source.peekNext(response).map { Continuation.next($0) } ?? .end == decoded, "\(name)")
        }
    }
}

/// Runs every job on one serial queue: two tasks on it take turns only where one of them suspends.
private final class SerialQueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "vitrine.tests.serial")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// How many turns a probe task got.
private final class TurnCounter: Sendable {
    private let count = Locked(0)

    var value: Int { count.current }

    func add() { count.withLock { $0 += 1 } }
}

/// Shapes recorded from live repositories that once lost or merged records (issue 12, items 4 and 5).
@Suite struct OAIPMHRecordIdentityTests {
    @Test func `a DSpace page whose dc:identifiers are a citation and a shared ISSN keeps all eight records`()
        async throws
    {
        let source = OAIPMHSource(
            descriptor: OAIPMHSource.genericDescriptor, baseURL: url("http://127.0.0.1:9/oai"), metadataPrefix: "oai_dc"
        )
        let body = try Fixtures.data("oai-dspace", "citations-and-shared-issn.xml")
        let page = try await source.decode(SourceResponse(status: 200, body: body), page: .token(nil))
        let objects = page.records.compactMap { if case .object(let object) = $0 { object } else { nil } }
        #expect(objects.count == 8)
        #expect(
            page.records.filter { if case .deleted = $0 { true } else { false } }
                == [
                    .deleted(recordID: "oai:repository.example.edu:10394/1301"),
                    .deleted(recordID: "oai:repository.example.edu:10394/1302"),
                ])
        // The header identifier tells records apart, whatever their dc:identifiers say.
        #expect(Set(objects.compactMap(\.recordID)).count == 8)
        #expect(objects[0].recordID == "oai:repository.example.edu:10394/1201")
        // A citation is no object number: the header's short form stands in.
        #expect(objects[0].id == "10394/1201")
        var index = SectionIndex()
        for (position, object) in objects.enumerated() {
            index.insert(object, at: SectionIndex.Place(page: 0, position: position))
        }
        #expect(index.objectCount == 8)
        #expect(index.duplicates == 0)
    }
}

/// Inputs whose size once made a path quadratic (issue 12, item 10).
@Suite struct OAIPMHScaleTests {
    @Test func `a record with 16,000 creators resolves its maker through the agents, once each`() throws {
        let count = 16_000
        var creators = ""
        var agents = ""
        for index in 0..<count {
            creators += "<dc:creator rdf:resource=\"https://id.example/agent/\(index)\"/>"
            // Only the last agent has a label: every creator before it is looked up and passed over.
            let label = index == count - 1 ? "<skos:prefLabel xml:lang=\"en\">The Last Maker</skos:prefLabel>" : ""
            agents += "<edm:Agent rdf:about=\"https://id.example/agent/\(index)\">\(label)</edm:Agent>"
        }
        let page = """
            <?xml version="1.0" encoding="UTF-8"?>
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords><record>
            <header><identifier>oai:example:1</identifier><datestamp>2026-01-01T00:00:00Z</datestamp></header>
            <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
              xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:dc="http://purl.org/dc/elements/1.1/"
              xmlns:skos="http://www.w3.org/2004/02/skos/core#">
            <edm:ProvidedCHO rdf:about="https://id.example/object/1"><dc:identifier>X-1</dc:identifier>
            <dc:title>Many hands</dc:title>\(creators)</edm:ProvidedCHO>\(agents)
            </rdf:RDF></metadata></record></ListRecords></OAI-PMH>
            """
        let parsed = try OAIPMHPageParser.parse(Data(page.utf8), mapper: OAIRecordMapper(language: "en"))
        guard case .object(let object) = parsed.outcomes.first else {
            Issue.record("expected an object, got \(parsed.outcomes)")
            return
        }
        #expect(object.maker == "The Last Maker")
        #expect(object.id == "X-1" && object.recordID == "oai:example:1")
    }
}

/// XML that real repositories send and XML 1.0 forbids: one bad title must not fail its page, and with it every
/// page after it in the chain (issue 12, item 6).
@Suite struct OAIPMHRepairTests {
    @Test func `control characters, Latin-1 bytes and home-made entities are mended and the page read`()
        async throws
    {
        let source = OAIPMHSource(
            descriptor: OAIPMHSource.genericDescriptor, baseURL: url("http://127.0.0.1:9/oai"), metadataPrefix: "oai_dc"
        )
        let body = try Fixtures.data("oai-dirty", "invalid-characters.xml")
        #expect(throws: OAIPMHParseError.self) { _ = try OAIPMHPageParser.parse(body) }  // libxml2 alone refuses it
        let page = try await source.decode(SourceResponse(status: 200, body: body), page: .token(nil))
        let titles = page.records.compactMap { if case .object(let object) = $0 { object.title } else { nil } }
        #expect(
            titles == [
                "Vertical tab in a title", "A control reference   here", "Caf\u{FFFD} in Latin-1 bytes",
                "Rights (c) museum", "A clean title",
            ])
        #expect(page.continuation == .next(.token("next-5")))
        #expect(page.notices.count == 1)
        #expect(page.notices.first?.hasPrefix("page 1: the repository sent XML that is not well-formed") == true)
    }

    @Test func `an external entity is still never read, mended or not`() throws {
        let page = Data(
            """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords/></OAI-PMH>&xxe;
            """.utf8)
        let mended = try #require(XMLRepair.repaired(page))
        let text = String(decoding: mended.data, as: UTF8.self)
        #expect(!text.contains("DOCTYPE") && !text.contains("root:"))
    }
}

/// Formats other than oai_dc and EDM (issue 12, item 16).
@Suite struct OAIPMHOtherFormatTests {
    private let source = OAIPMHSource(
        descriptor: OAIPMHSource.genericDescriptor, baseURL: url("http://127.0.0.1:9/oai"), metadataPrefix: "nsdl_dc")

    @Test func `NSDL's nsdl_dc, Dublin Core in another wrapper, is read as Dublin Core`() async throws {
        let body = try Fixtures.data("oai-nsdl", "nsdl-dc.xml")
        let page = try await source.decode(SourceResponse(status: 200, body: body), page: .token(nil))
        let objects = page.records.compactMap { if case .object(let object) = $0 { object } else { nil } }
        #expect(objects.map(\.title) == ["Physlet simulation 1", "Physlet simulation 2", "Physlet simulation 3"])
        #expect(objects.allSatisfy { $0.maker == "Christian, Wolfgang" })
        #expect(objects.first?.objectURL == "http://www.example.edu/physlets/1.html")
        #expect(objects.first?.recordID == "oai:nsdl.org:2200/20101")
        #expect(page.continuation == .end)
    }

    @Test func `a format with no Dublin Core elements is skipped, naming it`() async throws {
        let body = try Fixtures.data("oai-nsdl", "marc21.xml")
        let page = try await source.decode(SourceResponse(status: 200, body: body), page: .token(nil))
        #expect(
            page.records == [
                .skipped(
                    reason: "oai:library:1 is in a metadata format Vitrine cannot read (<record>, with no Dublin "
                        + "Core elements)")
            ])
    }
}

/// Pages in the shapes live repositories send them (issue 12, fixtures).
@Suite struct OAIPMHRecordedShapesTests {
    private let dublinCore = OAIPMHSource(
        descriptor: OAIPMHSource.genericDescriptor, baseURL: url("http://127.0.0.1:9/oai"), metadataPrefix: "oai_dc")

    private func objects(_ page: SourcePage) -> [ArtObject] {
        page.records.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    @Test func `Zenodo: a stylesheet before the root, Cyrillic and Devanagari, a token padded with whitespace`()
        async throws
    {
        let body = try Fixtures.data("oai-zenodo", "listrecords-oai-dc.xml")
        let response = SourceResponse(status: 200, body: body)
        let page = try await dublinCore.decode(response, page: .token(nil))
        let read = objects(page)
        #expect(read.map(\.title) == ["Музейный архив: фотографии 1905 года", "पांडुलिपि संग्रह"])
        #expect(read.map(\.maker) == ["Иванова, Мария", "शर्मा, अनीता"])
        #expect(read.first?.objectURL == "https://zenodo.org/record/7411028")
        #expect(read.first?.recordID == "oai:zenodo.org:7411028")
        let token = "eJyNj0tvwjAQhP-LzxwSHg3k1gJqkapKqOFgnCxh7c3GsLzk36cm59jzO"
        #expect(page.continuation == .next(.token(token)))
        #expect(dublinCore.peekNext(response) == .token(token))
        #expect(page.reportedTotal == 3)
    }

    @Test func `an HTTP 422 with an empty noRecordsMatch error is an empty list, not a failure`() async throws {
        let response = SourceResponse(status: 422, body: try Fixtures.data("oai-errors", "noRecordsMatch-422.xml"))
        #expect(dublinCore.failure(for: response) == nil)
        let page = try await dublinCore.decode(response, page: .token(nil))
        #expect(page.records.isEmpty && page.continuation == .end && page.reportedTotal == 0)
    }

    @Test func `Rijksmuseum EDM with ns0 to ns11 prefixes, NFD text, mojibake and both languages`() async throws {
        let source = OAIPMHSource(
            descriptor: RijksmuseumOAISource.descriptor, baseURL: url("http://127.0.0.1:9/oai"), metadataPrefix: "edm",
            language: "en")
        let body = try Fixtures.data("rijksmuseum-oai", "edm-numbered-prefixes.xml")
        let page = try await source.decode(SourceResponse(status: 200, body: body), page: .token(nil))
        let object = try #require(objects(page).first)
        #expect(object.id == "SK-C-1368")
        #expect(object.title == "View of Delft, a café by the water")
        // The maker's name is kept as the museum sent it, mojibake and all: Vitrine cannot know what was meant.
        #expect(object.maker == "Kunstkammer Sch\u{C3}\u{B6}ne K\u{C3}\u{BC}nste")
        #expect(object.image?.sizing == .iiif(service: "https://iiif.micr.io/aTnAp", cachedWidths: []))
        #expect(page.continuation == .end)  // a token of whitespace only ends the list
        let dutch = OAIPMHSource(
            descriptor: RijksmuseumOAISource.descriptor, baseURL: url("http://127.0.0.1:9/oai"), metadataPrefix: "edm",
            language: "nl")
        let nfd = try #require(
            objects(try await dutch.decode(SourceResponse(status: 200, body: body), page: .token(nil))).first)
        // NFD text stays NFD: the bytes the museum sent.
        #expect(Array(nfd.title.unicodeScalars).contains("\u{301}"))
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
