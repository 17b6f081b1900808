import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

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
