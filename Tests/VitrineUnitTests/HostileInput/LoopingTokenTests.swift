import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore

/// A resumption token that repeats forever, or cycles A→B→A, stops the harvest with an error naming it instead
/// of looping (issue 12, item 7).
@Suite struct LoopingTokenTests {
    /// A chain whose pages name the next token from a fixed script; the last one repeats.
    struct ScriptedChain: CollectionSource {
        var tokens: [String]
        var descriptor: SourceDescriptor { Seeds.descriptor }
        var firstPage: PageCursor { .token(nil) }

        func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
            guard case .token(let token) = page else { throw .invalidRequest("tokens only") }
            return SourceRequest(url: url("http://127.0.0.1/oai?resumptionToken=\(token ?? "first")"))
        }

        func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
            let asked = String(decoding: response.body, as: UTF8.self)
            let index = asked == "first" ? 0 : (tokens.firstIndex(of: asked) ?? tokens.count - 1) + 1
            let next = tokens[min(index, tokens.count - 1)]
            return SourcePage(
                records: [.object(Seeds.object("\(asked)-\(index)", "M"))], continuation: .next(.token(next)))
        }
    }

    /// Echoes the token asked for as the body.
    struct EchoTransport: Transport {
        func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
            SourceResponse(status: 200, body: Data((request.url.query ?? "").dropFirst("resumptionToken=".count).utf8))
        }
    }

    @Test(arguments: [["A"], ["A", "B", "A"], ["A", "B", "C", "B"]])
    func `a token asked for twice stops the harvest naming it`(tokens: [String]) async throws {
        let worker = HarvestWorker(
            source: ScriptedChain(tokens: tokens), transport: EchoTransport(), options: HarvestOptions(),
            sleeper: RecordingSleeper())
        var pages = 0
        let error = await #expect(throws: ExportError.self) {
            try await worker.harvest { event in
                if case .page = event { pages += 1 }
                if pages > 100 { throw CancellationError() }
            }
        }
        #expect(pages <= tokens.count + 1)
        #expect(error?.description.contains("sent the resumption token '\(tokens.last ?? "")' again") == true)
    }

    /// A list that never repeats a token: page n names token n + 1, and lists the records of page n % 3 (a list
    /// started over under new tokens), or none at all.
    struct NewTokensForever: CollectionSource {
        var empty: Bool
        var descriptor: SourceDescriptor { Seeds.descriptor }
        var firstPage: PageCursor { .token(nil) }

        func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
            guard case .token(let token) = page else { throw .invalidRequest("tokens only") }
            return SourceRequest(url: url("http://127.0.0.1/oai?resumptionToken=\(token ?? "0")"))
        }

        func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
            let number = Int(String(decoding: response.body, as: UTF8.self)) ?? 0
            let records: [RecordOutcome] =
                empty ? [] : ["a", "b"].map { .object(Seeds.object("\(number % 3)\($0)", "M")) }
            return SourcePage(records: records, continuation: .next(.token(String(number + 1))))
        }
    }

    /// Found by a hostile check of nights: 9,000 requests and 37 MB of page cache in 30 s, and no end.
    @Test(arguments: [false, true])
    func `a list that starts over or stays empty under new tokens stops the harvest`(empty: Bool) async throws {
        let worker = HarvestWorker(
            source: NewTokensForever(empty: empty), transport: EchoTransport(), options: HarvestOptions(),
            sleeper: RecordingSleeper())
        var pages = 0
        let error = await #expect(throws: ExportError.self) {
            try await worker.harvest { event in
                if case .page = event { pages += 1 }
                if pages > 20_000 { throw CancellationError() }
            }
        }
        #expect(pages <= (empty ? 10_002 : 15))
        let words =
            empty
            ? "10001 pages in a row with no record"
            : "11 pages in a row listing records again under new resumption tokens"
        #expect(error?.description.contains(words) == true, "\(error?.description ?? "")")
        #expect(error?.exitStatus == 1)
    }
}
