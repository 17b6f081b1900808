import Foundation

/// An imitation of a museum API on 127.0.0.1, for tests: serves a collection in the real API's shape, with
/// knobs for the API's quirks and failures, and a log of every request.
package final class MockMuseum: Sendable {
    /// `http://127.0.0.1:{port}`.
    package let baseURL: String
    private let server: MockHTTPServer
    private let state: MockMuseumState
    /// Works out what a generation of the museum serves before it is asked (see `prepare(generation:)`).
    private let preparing: @Sendable (Int) -> Void

    private init(
        server: MockHTTPServer, state: MockMuseumState, preparing: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.server = server
        self.baseURL = "http://127.0.0.1:\(server.port)"
        self.state = state
        self.preparing = preparing
    }

    /// Starts a mock of the Rijksmuseum collection API at `{baseURL}/api/{culture}/collection`.
    package static func rijksmuseumLegacy(
        _ collection: LegacyCollection,
        configuration: MockConfiguration = MockConfiguration()
    ) async throws -> MockMuseum {
        let state = MockMuseumState()
        let handler = LegacyCollectionHandler(collection: collection, configuration: configuration, state: state)
        return try await start(handler: handler, state: state)
    }

    /// Starts a mock of an OAI-PMH repository at `{baseURL}/oai` (the Rijksmuseum's, by default), on `port` (0: any
    /// free port; a fixed one keeps the base URL, and so the collection store, the same from one start to the next).
    package static func oaiPMH(_ collection: OAICollection, port: Int = 0) async throws -> MockMuseum {
        let state = MockMuseumState()
        let handler = OAIPMHHandler(collection: collection, state: state)
        return try await start(handler: handler, state: state, port: port) { generation in
            handler.listings.index(of: collection, generation: generation)
        }
    }

    /// Starts a mock of the Art Institute of Chicago's API at `{baseURL}/api/v1`.
    package static func artInstitute(_ collection: ArtInstituteCollection) async throws -> MockMuseum {
        let state = MockMuseumState()
        return try await start(handler: ArtInstituteHandler(collection: collection, state: state), state: state)
    }

    /// Starts a mock of The Met's collection API at `{baseURL}/public/collection`.
    package static func met(_ collection: MetCollection) async throws -> MockMuseum {
        let state = MockMuseumState()
        return try await start(handler: MetHandler(collection: collection, state: state), state: state)
    }

    /// Starts a mock of Unsplash's API at `{baseURL}`.
    package static func unsplash(_ collection: UnsplashCollection) async throws -> MockMuseum {
        let state = MockMuseumState()
        return try await start(handler: UnsplashHandler(collection: collection, state: state), state: state)
    }

    static func start(
        handler: some MockHandler, state: MockMuseumState, port: Int = 0,
        preparing: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws -> MockMuseum {
        let server = try await MockHTTPServer.start(
            handler: FaultInjectingHandler(inner: handler, state: state), port: port)
        return MockMuseum(server: server, state: state, preparing: preparing)
    }

    /// The API's base URL for the legacy Rijksmuseum source (`--base-url`).
    package var legacyBaseURL: String { baseURL + "/api" }
    /// `--base-url` for the OAI-PMH mock.
    package var oaiBaseURL: String { baseURL + "/oai" }
    /// `--base-url` for the Art Institute mock.
    package var artInstituteBaseURL: String { baseURL + "/api/v1" }
    /// `--base-url` for The Met mock.
    package var metBaseURL: String { baseURL + "/public/collection" }
    /// `--base-url` for the Unsplash mock.
    package var unsplashBaseURL: String { baseURL }

    /// Changes the faults the API shows from now on.
    package func setFaults(_ faults: MockFaults) async {
        await state.setFaults(faults)
    }

    /// Works out the records an OAI-PMH museum's `generation` holds, in datestamp order, as a real repository has
    /// its datestamp index before anyone asks: otherwise the first listing of a generation does it (35 ms at
    /// 100,000 records), inside the run a benchmark times. Other museums have nothing to prepare.
    package func prepare(generation: Int) {
        preparing(generation)
    }

    /// Forgets the requests logged so far (and the counts behind flaky URLs and outages).
    package func resetLog() async {
        await state.reset()
    }

    /// Returns once the mock has logged at least `count` requests since its log was last reset.
    package func waitForRequests(_ count: Int) async {
        await state.waitForRequests(count)
    }

    /// Every request so far, as `path?query` (the query as sent, percent-encoded), in arrival order.
    package func requests() async -> [String] {
        await state.requests
    }

    /// The headers of every request so far, names lower-cased, in arrival order.
    package func requestHeaders() async -> [[String: String]] {
        await state.headers
    }

    /// Stops the server.
    package func stop() async {
        await server.stop()
    }
}

/// Quirks and failures the mock can show.
package struct MockConfiguration: Sendable {
    /// The key the API insists on (`"Invalid key"`, 401, otherwise); `nil` accepts any request.
    package var requiredKey: String?
    /// Answers every request with 410 Gone, as the retired API does.
    package var retired = false
    /// 0: pages count from 0, as the docs say. 1: from 1, with `p=0` repeating page 1, as some servers do.
    package var firstPageNumber = 0
    /// Answers these pages (by `p`) with this status and a short body.
    package var failingPages: [Int: Int] = [:]
    /// Answers these pages (by `p`) with JSON that is not valid.
    package var malformedPages: Set<Int> = []
    /// Answers these pages (by `p`) cut short the first time they are asked for (a connection closed part way).
    package var cutShortOnce: Set<Int> = []
    /// Waits this long before each answer.
    package var latency: Duration = .zero

    package init(
        requiredKey: String? = nil,
        retired: Bool = false,
        firstPageNumber: Int = 0,
        failingPages: [Int: Int] = [:],
        malformedPages: Set<Int> = [],
        latency: Duration = .zero
    ) {
        self.requiredKey = requiredKey
        self.retired = retired
        self.firstPageNumber = firstPageNumber
        self.failingPages = failingPages
        self.malformedPages = malformedPages
        self.latency = latency
    }
}

/// The request log, shared by the handler's concurrent requests.
actor MockMuseumState {
    /// Off the shared concurrency pool, like the mock's connections: a handler that logs its request must not wait
    /// behind the tests' own work there.
    nonisolated var unownedExecutor: UnownedSerialExecutor { MockStateExecutor.shared.asUnownedSerialExecutor() }

    var requests: [String] = []
    var headers: [[String: String]] = []
    var faults = MockFaults()

    func setFaults(_ faults: MockFaults) {
        self.faults = faults
    }

    private var kept: [String: MockResponse] = [:]

    /// Counted up by each reset: what a request taken before it would log is left out.
    private var epoch = 0

    /// The faults, the request's number since the last reset, and the log's epoch, as one request is taken.
    func take() -> (faults: MockFaults, number: Int, epoch: Int) {
        (faults, count("all requests"), epoch)
    }

    func reset() {
        epoch += 1
        requests = []
        headers = []
        counts = [:]
        kept = [:]
    }

    func keptResponse(for target: String) -> MockResponse? { kept[target] }

    func keep(_ response: MockResponse, for target: String) { kept[target] = response }
    /// Answers given per key, for knobs such as "throttle this object once".
    private var counts: [String: Int] = [:]

    /// Logs a request with its raw query and headers.
    func record(_ request: MockRequest) {
        if let taken = request.logEpoch, taken != epoch { return }
        requests.append(request.target)
        headers.append(request.headers)
        let count = requests.count
        for (id, waiter) in waiting where count >= waiter.count {
            waiting[id] = nil
            waiter.continuation.resume()
        }
    }

    /// Those waiting for the log to hold a number of requests.
    private var waiting: [UUID: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]

    /// Returns once the log holds at least `count` requests, or the task is cancelled.
    func waitForRequests(_ count: Int) async {
        guard requests.count < count else { return }
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    waiting[id] = (count, continuation)
                }
            }
        } onCancel: {
            Task { await self.cancelWaiting(id) }
        }
    }

    private func cancelWaiting(_ id: UUID) {
        waiting.removeValue(forKey: id)?.continuation.resume()
    }

    /// How many times `key` was counted before, counting this time.
    func count(_ key: String) -> Int {
        let seen = counts[key, default: 0]
        counts[key] = seen + 1
        return seen
    }
}
