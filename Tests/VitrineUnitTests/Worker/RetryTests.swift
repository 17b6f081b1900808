import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore

/// Retries with an injected sleeper: the schedule is checked, never slept.
@Suite struct RetryTests {
    @Test func `backoff doubles with jitter up to the ceiling; Retry-After wins; other failures are final`() {
        let policy = RetryPolicy(retries: 8, baseDelay: 1, maximumDelay: 10, jitter: { 1 })
        let unavailable = HarvestFailure.unavailable(503, "", retryAfter: nil)
        let schedule = (1...8).map { policy.delay(beforeRetry: $0, after: unavailable) }
        #expect(schedule == [1, 2, 4, 8, 10, 10, 10, 10].map { .seconds($0) })
        #expect(policy.delay(beforeRetry: 9, after: unavailable) == nil)
        let halfJitter = RetryPolicy(retries: 3, jitter: { 0 })
        #expect(halfJitter.delay(beforeRetry: 3, after: unavailable) == .seconds(2))
        #expect(policy.delay(beforeRetry: 1, after: .throttled("", retryAfter: 7)) == .seconds(7))
        #expect(policy.delay(beforeRetry: 1, after: .throttled("", retryAfter: 3_600)) == nil)
        #expect(policy.delay(beforeRetry: 1, after: .httpStatus(404, "")) == nil)
        #expect(policy.delay(beforeRetry: 1, after: .quotaExhausted("")) == nil)
    }

    @Test func `Retry-After is read as seconds or as an HTTP date`() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-22T10:00:00Z"))
        #expect(SourceResponse(status: 429, headers: ["Retry-After": "120"], body: Data()).retryAfter(now: now) == 120)
        #expect(
            SourceResponse(status: 503, headers: ["Retry-After": "Sun, 22 Nov 2026 10:00:30 GMT"], body: Data())
                .retryAfter(now: now) == 30)
        #expect(SourceResponse(status: 503, headers: ["Retry-After": "soon"], body: Data()).retryAfter(now: now) == nil)
        let throttled = SourceResponse(status: 429, headers: ["Retry-After": "5"], body: Data()).statusFailure
        #expect(throttled == .throttled("the server is throttling requests (HTTP 429)", retryAfter: 5))
    }

    @Test func `the pacer spaces requests to the rate, counting from when each is asked`() async {
        let pacer = RequestPacer(requestsPerSecond: 2)
        let start = ContinuousClock.now
        #expect(await pacer.reserve(now: start) == .zero)
        #expect(await pacer.reserve(now: start) == .milliseconds(500))
        #expect(await pacer.reserve(now: start + .milliseconds(100)) == .milliseconds(900))
        #expect(await pacer.reserve(now: start + .seconds(5)) == .zero)
    }

    @Test func `the worker retries 429 and 5xx, then fails naming the URL and how often it tried`() async throws {
        let sleeper = RecordingSleeper()
        let worker = HarvestWorker(
            source: StubSource(pages: [[.object(Seeds.object("A", "M"))]]),
            transport: ScriptedTransport(statuses: [429, 503, 200]),
            options: HarvestOptions(retries: 2, jitter: { 0 }), sleeper: sleeper)
        let page = try await worker.fetch(.number(1))
        #expect(page.records.count == 1)
        #expect(sleeper.pauses == [.milliseconds(500), .seconds(1)])

        let failing = HarvestWorker(
            source: StubSource(pages: [[]]), transport: ScriptedTransport(statuses: [500]),
            options: HarvestOptions(retries: 2, jitter: { 0 }), sleeper: RecordingSleeper())
        let error = await #expect(throws: ExportError.self) { _ = try await failing.fetch(.number(1)) }
        #expect(
            error?.description
                == "test: page 1 (http://127.0.0.1/stub?page=1&key=***): the server answered HTTP 500: boom at "
                + "http://127.0.0.1/stub?page=1&key=*** (still failing after 2 retries; try again later or lower "
                + "--rate)")
    }
}

extension RetryTests {
    @Test func `a Retry-After too long to wait for fails at once and says how long`() async {
        final class LongWait: Transport {
            func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
                SourceResponse(status: 429, headers: ["Retry-After": "3600"], body: Data())
            }
        }
        let sleeper = RecordingSleeper()
        let worker = HarvestWorker(
            source: StubSource(pages: [[]]), transport: LongWait(), options: HarvestOptions(), sleeper: sleeper)
        let error = await #expect(throws: ExportError.self) { _ = try await worker.fetch(.number(1)) }
        #expect(
            error?.description.hasSuffix("(the server asks to wait 3600 s: run the export again after that)") == true)
        #expect(sleeper.pauses.isEmpty)
    }
}

/// Answers with the given statuses in turn (the last one from then on).
final class ScriptedTransport: Transport, Sendable {
    private let statuses: Locked<[Int]>

    init(statuses: [Int]) {
        self.statuses = Locked(statuses)
    }

    func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
        let status = statuses.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        // A 500 echoes the request, key and all, as some servers' error pages do.
        let body = status == 200 ? "ok" : status == 500 ? "boom at \(request.url.absoluteString)" : "boom"
        return SourceResponse(status: status, body: Data(body.utf8))
    }
}

/// While a harvest waits before a retry, the user is told what it waits for (issue 12, timeouts).
@Suite struct WaitReportTests {
    @Test func `each pause before a retry is reported with its reason, and shown as a progress line`() async throws {
        let spy = ExportPresentationLogicSpy()
        let interactor = ExportInteractor(
            source: StubSource(pages: [[.object(Seeds.object("A", "M"))]]),
            transport: ScriptedTransport(statuses: [503, 429, 200]), presenter: spy, sleeper: RecordingSleeper())
        try await interactor.export(request: ExportRequest(harvest: HarvestOptions(retries: 3, jitter: { 0 })))
        let waits = spy.waitReports
        #expect(waits.map(\.retry) == [1, 2])
        #expect(waits.first?.reason == "the server answered HTTP 503: boom")
        #expect(waits.last?.reason == "the server is throttling requests (HTTP 429)")
        #expect(
            ExportPresenter.waitLine(try #require(waits.first))
                == "test: waiting 0.5 s before retry 1 of 3 of page 1: the server answered HTTP 503: boom")
    }
}

/// A server that cannot be reached fails in seconds, not minutes (issue 37, item 6): one short retry whatever
/// `--retries` says, then one line that names the cause and no advice about the rate.
@Suite struct UnreachableServerTests {
    final class Refusing: Transport, Sendable {
        let attempts = Locked(0)

        func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
            attempts.withLock { $0 += 1 }
            throw .unreachable("127.0.0.1:9 refused the connection; check --base-url, and that the server is running")
        }
    }

    @Test func `a refused connection is tried twice, with one short pause, whatever --retries says`() async {
        let transport = Refusing()
        let sleeper = RecordingSleeper()
        let worker = HarvestWorker(
            source: StubSource(pages: [[]]), transport: transport, options: HarvestOptions(retries: 5),
            sleeper: sleeper)
        let error = await #expect(throws: ExportError.self) { _ = try await worker.fetch(.number(1)) }
        #expect(transport.attempts.current == 2)
        #expect(sleeper.pauses == [.seconds(1)])
        #expect(
            error?.description
                == "test: page 1 (http://127.0.0.1/stub?page=1&key=***): 127.0.0.1:9 refused the connection; check "
                + "--base-url, and that the server is running (still failing after 1 retry)")
    }

    @Test func `the policy gives an unreachable server one retry, and a struggling one all of them`() {
        let policy = RetryPolicy(retries: 5, jitter: { 0 })
        let unreachable = HarvestFailure.unreachable("the host x cannot be found")
        #expect(policy.delay(beforeRetry: 1, after: unreachable) == .seconds(1))
        #expect(policy.delay(beforeRetry: 2, after: unreachable) == nil)
        #expect(policy.delay(beforeRetry: 5, after: .connection("dropped")) != nil)
        #expect(!unreachable.givenUp(afterRetries: 1).message.contains("--rate"))
    }
}
