import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore

/// A chain that stops while its next page is being fetched ahead waits for that fetch to stop: once a harvest has
/// returned, none of its requests goes on or fills the page cache.
@Suite struct PrefetchCancellationTests {
    /// Pages named "first", "A", "B", …: each names the next one in its body, so it can be fetched ahead.
    struct LetterChain: CollectionSource {
        var descriptor: SourceDescriptor { Seeds.descriptor }
        var firstPage: PageCursor { .token(nil) }

        func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
            guard case .token(let token) = page else { throw .invalidRequest("tokens only") }
            return SourceRequest(url: url("http://127.0.0.1/oai?token=\(token ?? "first")"))
        }

        func peekNext(_ response: SourceResponse) -> PageCursor? {
            .token(String(decoding: response.body, as: UTF8.self))
        }

        func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
            let next = String(decoding: response.body, as: UTF8.self)
            return SourcePage(records: [.object(Seeds.object(next, "M"))], continuation: .next(.token(next)))
        }
    }

    /// Answers the first `answered` requests at once (each body names the next letter); the next one hangs until
    /// it is cancelled, and says when it has stopped.
    final class HangingTransport: Transport, Sendable {
        let answered: Int
        private let state = Locked((asked: 0, stopped: false))

        init(answered: Int) {
            self.answered = answered
        }

        var hungRequestStopped: Bool { state.current.stopped }

        func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
            let number = state.withLock { state in
                state.asked += 1
                return state.asked
            }
            if number <= answered {
                return SourceResponse(status: 200, body: Data(String(UnicodeScalar(UInt8(64 + number))).utf8))
            }
            let waiter = Waiter()
            await withTaskCancellationHandler {
                await waiter.wait()
            } onCancel: {
                waiter.resume()
            }
            state.withLock { $0.stopped = true }
            throw .connection("cancelled")
        }
    }

    /// A continuation resumed once, whichever comes first: the wait or the resume.
    final class Waiter: Sendable {
        private let state = Locked<(resumed: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.resumed { return true }
                    state.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func resume() {
            let continuation = state.withLock { state in
                state.resumed = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }

    @Test(arguments: [1, 2, 3])
    func `a harvest that stops returns only after the page it fetched ahead has stopped`(pagesTaken: Int) async throws {
        let transport = HangingTransport(answered: pagesTaken)
        let worker = HarvestWorker(
            source: LetterChain(), transport: transport, options: HarvestOptions(), sleeper: RecordingSleeper())
        var pages = 0
        await #expect(throws: (any Error).self) {
            try await worker.harvest { event in
                guard case .page = event else { return }
                pages += 1
                if pages == pagesTaken { throw CancellationError() }
            }
        }
        #expect(pages == pagesTaken)
        #expect(transport.hungRequestStopped)
    }
}
