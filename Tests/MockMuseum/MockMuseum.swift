import FlyingFox
import FlyingSocks
import Foundation

/// An imitation of a museum API on 127.0.0.1, for tests: serves a collection in the real API's shape, with
/// knobs for the API's quirks and failures, and a log of every request.
package final class MockMuseum: Sendable {
    /// `http://127.0.0.1:{port}`.
    package let baseURL: String
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let state: MockMuseumState

    private init(server: HTTPServer, port: UInt16, task: Task<Void, any Error>, state: MockMuseumState) {
        self.server = server
        self.baseURL = "http://127.0.0.1:\(port)"
        self.task = task
        self.state = state
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

    private static func start(handler: some HTTPHandler, state: MockMuseumState) async throws -> MockMuseum {
        let address = try sockaddr_in.inet(ip4: "127.0.0.1", port: 0)
        let server = HTTPServer(address: address, timeout: 30, logger: .disabled, handler: handler)
        let task = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port) = await server.listeningAddress else {
            task.cancel()
            throw MockMuseumError.notListening
        }
        return MockMuseum(server: server, port: port, task: task, state: state)
    }

    /// The API's base URL for the legacy Rijksmuseum source (`--base-url`).
    package var legacyBaseURL: String { baseURL + "/api" }

    /// Every request so far, as `path?query`, in arrival order.
    package func requests() async -> [String] {
        await state.requests
    }

    /// Stops the server.
    package func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }
}

package enum MockMuseumError: Error {
    case notListening
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
    /// Answers these pages (by `p`) with a body that is not JSON.
    package var malformedPages: Set<Int> = []
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
    var requests: [String] = []

    func record(_ request: String) {
        requests.append(request)
    }
}
