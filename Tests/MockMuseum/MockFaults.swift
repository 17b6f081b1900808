import Foundation

/// Faults any mock API can show, changeable while it runs: latency, flaky URLs that answer 503 and then 429
/// with `Retry-After` before they work, and an outage after a number of requests (an interrupted harvest).
package struct MockFaults: Sendable {
    /// Waits this long before each answer.
    package var latency: Duration = .zero
    /// URLs whose stable hash is a multiple of this fail their first two attempts (503, then 429 with
    /// `Retry-After: 1`); 0: none.
    package var flakyEvery = 0
    /// URLs whose stable hash leaves 1 when divided by this have their connection closed, with no answer, on
    /// their first attempt (a dropped connection); 0: none.
    package var dropEvery = 0
    /// After this many requests every request answers `outageStatus` (a harvest cut off half-way).
    package var outageAfter: Int?
    package var outageStatus = 404
    /// OAI-PMH: tokens carry this generation; the server rejects tokens of any other one as expired
    /// (`badResumptionToken`), as a real server does after a restart or a timeout.
    package var tokenGeneration = 0
    /// Keeps every 200 answer and serves it again for the same request, so a benchmark's repeated rounds
    /// measure the harvest rather than the mock generating pages.
    package var cacheResponses = false
    /// Every answer sends its head at once and then its body one byte per this interval (a trickling server).
    package var trickle: Duration?
    /// Every request is first answered `307` to itself (a load balancer's hop on the same host).
    package var redirectOnce = false
    /// Every request is answered `302` to this URL (a redirect to another host).
    package var redirectAway: String?
    /// OAI-PMH: how many of the collection's change generations have happened (0: the bulk load only).
    package var museumGeneration = 0
    /// From this request on (counted from 0), requests are logged and never answered: a harvest stopped where it
    /// stands, for a test to kill.
    package var hangFrom: Int?

    package init(
        latency: Duration = .zero, flakyEvery: Int = 0, outageAfter: Int? = nil, outageStatus: Int = 404,
        tokenGeneration: Int = 0, cacheResponses: Bool = false, dropEvery: Int = 0, trickle: Duration? = nil
    ) {
        self.latency = latency
        self.flakyEvery = flakyEvery
        self.outageAfter = outageAfter
        self.outageStatus = outageStatus
        self.tokenGeneration = tokenGeneration
        self.cacheResponses = cacheResponses
        self.dropEvery = dropEvery
        self.trickle = trickle
    }

    /// A hash that is the same in every run (Swift's `hashValue` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}

/// Applies `MockFaults` in front of an API's handler, and logs every request.
struct FaultInjectingHandler<Inner: MockHandler>: MockHandler {
    let inner: Inner
    let state: MockMuseumState

    func handle(_ request: MockRequest) async throws -> MockResponse {
        let (faults, number, epoch) = await state.take()
        var request = request
        request.logEpoch = epoch
        if faults.latency > .zero { try await Task.sleep(for: faults.latency) }
        let query = request.rawQuery
        let target = query.isEmpty ? request.path : "\(request.path)?\(query)"
        if let hang = faults.hangFrom, number >= hang {
            await state.record(request)
            try await Task.sleep(for: .seconds(600))
            throw MockConnectionDrop()
        }
        if let outage = faults.outageAfter, number >= outage {
            await state.record(request)
            return MockResponse(status: faults.outageStatus, body: Data())
        }
        if faults.flakyEvery > 0, MockFaults.stableHash(target) % UInt64(faults.flakyEvery) == 0 {
            switch await state.count("flaky \(target)") {
            case 0:
                await state.record(request)
                return MockResponse(
                    status: 503, headers: ["Content-Type": "text/html"],
                    body: Data("<html><body>Service Unavailable</body></html>".utf8))
            case 1:
                await state.record(request)
                return MockResponse(
                    status: 429,
                    headers: ["Content-Type": "application/json", "Retry-After": "1"],
                    body: Data(#"{"status":429,"error":"Too Many Attempts."}"#.utf8))
            default:
                break
            }
        }
        if faults.dropEvery > 0, MockFaults.stableHash(target) % UInt64(faults.dropEvery) == 1,
            await state.count("drop \(target)") == 0
        {
            await state.record(request)
            throw MockConnectionDrop()
        }
        if let away = faults.redirectAway {
            await state.record(request)
            return MockResponse(status: 302, headers: ["Location": away])
        }
        if faults.redirectOnce, await state.count("redirect \(target)") == 0 {
            await state.record(request)
            return MockResponse(status: 307, headers: ["Location": target])
        }
        if faults.cacheResponses, let kept = await state.keptResponse(for: target) {
            await state.record(request)
            return kept
        }
        var response = try await inner.handle(request)
        if faults.cacheResponses && response.status == 200 { await state.keep(response, for: target) }
        response.trickle = faults.trickle
        return response
    }
}

/// Thrown by a handler to have the server close the connection without answering.
struct MockConnectionDrop: Error {}
