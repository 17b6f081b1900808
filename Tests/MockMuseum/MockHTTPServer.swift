import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A request as the mock APIs see it.
package struct MockRequest: Sendable {
    /// The path, percent-decoded (`/api/en/collection`).
    package var path: String
    /// The query as sent, still percent-encoded (`p=0&ps=5`).
    package var rawQuery: String
    /// Header names lower-cased.
    package var headers: [String: String]
    /// The log's epoch when the mock took the request (each `MockMuseum.resetLog` starts one): a request taken
    /// before a reset and logged after it, as a run cut off leaves one, is not logged.
    package var logEpoch: Int? = nil

    /// The query items, percent-decoded (a `+` stays a `+`).
    package var query: [(name: String, value: String)] {
        rawQuery.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.removingPercentEncoding ?? String($0) }
            return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        }
    }

    /// `http://{host}`: where this mock answers, for the API URLs (next links, self links) it writes into its
    /// answers, so nothing it serves points at a live API.
    package var origin: String { "http://\(header("host") ?? "127.0.0.1")" }

    /// `path?query` as sent.
    package var target: String { rawQuery.isEmpty ? path : "\(path)?\(rawQuery)" }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A response from a mock API.
package struct MockResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data
    /// Sends the head at once, then the body one byte per interval (a server that trickles), when set.
    package var trickle: Duration?

    package init(status: Int, headers: [String: String] = [:], body: Data = Data(), trickle: Duration? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.trickle = trickle
    }
}

/// What answers the mock's requests.
package protocol MockHandler: Sendable {
    func handle(_ request: MockRequest) async throws -> MockResponse
}

/// A small HTTP/1.1 server on SwiftNIO for the mock APIs: keep-alive, `TCP_NODELAY`, each response written in
/// one flush (so loopback timings show the harvest, not Nagle's algorithm meeting delayed ACKs).
final class MockHTTPServer: Sendable {
    let port: Int
    private let channel: any Channel
    /// The connections still open, closed by `stop()`: a stopped mock leaves no connection in a client's pool
    /// (the HTTP client is shared by every test in the process).
    private let connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>

    private init(port: Int, channel: any Channel, connections: NIOLockedValueBox<[ObjectIdentifier: any Channel]>) {
        self.port = port
        self.channel = channel
        self.connections = connections
    }

    static func start(handler: some MockHandler, port: Int = 0) async throws -> MockHTTPServer {
        let connections = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .bind(host: "127.0.0.1", port: port) { channel in
                let id = ObjectIdentifier(channel)
                connections.withLockedValue { $0[id] = channel }
                channel.closeFuture.whenComplete { _ in _ = connections.withLockedValue { $0.removeValue(forKey: id) } }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        let port = server.channel.localAddress?.port ?? 0
        let listener = server.channel
        let accept: @Sendable () async throws -> Void = {
            try await server.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask { try? await serve(connection, handler: handler) }
                    }
                }
            }
        }
        if #available(macOS 15, *) {
            Task(executorPreference: MockServerExecutor.shared) { try await accept() }
        } else {
            Task { try await accept() }
        }
        return MockHTTPServer(port: port, channel: listener, connections: connections)
    }

    private static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, handler: some MockHandler
    ) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                case .body:
                    break
                case .end:
                    guard let requestHead = head else { continue }
                    let response: MockResponse
                    do {
                        response = try await handler.handle(request(from: requestHead))
                    } catch is MockConnectionDrop {
                        return  // Closes the connection with the request unanswered.
                    } catch {
                        response = MockResponse(status: 500, body: Data("mock error: \(error)".utf8))
                    }
                    var headers = HTTPHeaders(response.headers.map { ($0.key, $0.value) })
                    headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
                    let responseHead = HTTPResponseHead(
                        version: requestHead.version, status: HTTPResponseStatus(statusCode: response.status),
                        headers: headers)
                    if let interval = response.trickle {
                        try await outbound.write(.head(responseHead))
                        // Bounded: the client gives up long before a page trickles out; so does the mock, after
                        // a minute, whatever the client does.
                        for byte in response.body.prefix(Int(60 / max(0.001, interval / .seconds(1)))) {
                            try await Task.sleep(for: interval)
                            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: [byte]))))
                        }
                        return
                    }
                    try await outbound.write(contentsOf: [
                        .head(responseHead), .body(.byteBuffer(ByteBuffer(bytes: response.body))), .end(nil),
                    ])
                    head = nil
                }
            }
        }
    }

    private static func request(from head: HTTPRequestHead) -> MockRequest {
        let uri = head.uri
        let split = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = split.first.map(String.init) ?? "/"
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        return MockRequest(
            path: rawPath.removingPercentEncoding ?? rawPath, rawQuery: split.count > 1 ? String(split[1]) : "",
            headers: headers)
    }

    func stop() async {
        try? await channel.close()
        for connection in connections.withLockedValue({ Array($0.values) }) { try? await connection.close() }
    }
}

/// Runs a mock's tasks (its connections and handlers, which inherit it) on threads of their own: the tests fill the
/// concurrency pool with work of their own, and a mock waiting there behind it could miss a client's read timeout.
@available(macOS 15, *)
final class MockServerExecutor: TaskExecutor {
    static let shared = MockServerExecutor()

    private let queues = (0..<max(2, ProcessInfo.processInfo.activeProcessorCount)).map {
        DispatchQueue(label: "vitrine.mock-museum.\($0)")
    }
    private let next = NIOLockedValueBox(0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let number = next.withLockedValue { number in
            defer { number &+= 1 }
            return number
        }
        queues[number % queues.count].async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// The serial executor of every mock's request log: one thread of its own, for work that is never more than a few
/// dictionary updates.
final class MockStateExecutor: SerialExecutor {
    static let shared = MockStateExecutor()

    private let queue = DispatchQueue(label: "vitrine.mock-museum.state")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
