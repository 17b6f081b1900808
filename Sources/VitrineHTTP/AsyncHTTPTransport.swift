import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import VitrineCore

/// Sends requests with AsyncHTTPClient. Returns every response whatever its status (the source decides what
/// a status means); throws only when no response came.
package struct AsyncHTTPTransport: Transport {
    /// Largest body read; a page bigger than this is refused rather than filling memory.
    package static let maximumBodySize = 64 << 20
    /// Sent with every request, naming the tool.
    package static let userAgent = "Vitrine/\(VitrineVersion.current) (museum collection exporter)"

    package let client: HTTPClient
    package let timeouts: HTTPTimeouts

    package init(timeouts: HTTPTimeouts = HTTPTimeouts()) {
        self.timeouts = timeouts
        self.client = Self.client(for: timeouts)
    }

    /// One client per set of timeouts, kept for the life of the process (a client must be shut down before it
    /// goes away, and a command-line run ends with the process).
    private static let clients = Locked<[HTTPTimeouts: HTTPClient]>([:])

    private static func client(for timeouts: HTTPTimeouts) -> HTTPClient {
        clients.withLock { clients in
            if let client = clients[timeouts] { return client }
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.redirectConfiguration = .disallow
            // A connection that cannot be made fails the request at once: the harvest's own retry policy decides
            // whether to ask again (once, soon, for a refusal; with backoff for the rest), instead of the pool
            // trying again for the whole connect timeout behind every one of them.
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.timeout = HTTPClient.Configuration.Timeout(
                connect: .milliseconds(Int64(timeouts.connect * 1000)), read: .milliseconds(Int64(timeouts.read * 1000))
            )
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[timeouts] = client
            return client
        }
    }

    /// Redirects followed within the same host, at most.
    static let maximumRedirects = 5

    package func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
        // Redirects are followed here, not by the client: within the request's host only (an `http` → `https`
        // upgrade included). A redirect to another host is refused, naming it: a key or a password must not
        // follow it, and what it answers would be cached under this URL.
        var url = request.url
        for _ in 0...Self.maximumRedirects {
            let response = try await fetchOnce(request, at: url)
            guard [301, 302, 303, 307, 308].contains(response.status) else { return response }
            guard let location = response.headers["location"],
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            else { return response }
            guard next.host?.lowercased() == url.host?.lowercased(), ["http", "https"].contains(next.scheme ?? "")
            else {
                throw .unusableResponse(
                    "the server redirects to another host (\(URLRedaction.redact(next.absoluteString))); if you trust "
                        + "it, point --base-url there")
            }
            url = next
        }
        throw .unusableResponse("the server redirects more than \(Self.maximumRedirects) times")
    }

    /// One request to `url` with the request's headers, whatever the status.
    private func fetchOnce(_ request: SourceRequest, at url: URL) async throws(HarvestFailure) -> SourceResponse {
        // `user:password@` in a base URL (a protected mirror) is sent as HTTP Basic authentication, never as part
        // of the URL; messages, logs and cache names show `***@` (see `URLRedaction`).
        let (address, credentials) = Self.splitCredentials(url)
        var outgoing = HTTPClientRequest(url: address)
        outgoing.method = .GET
        outgoing.headers.add(name: "User-Agent", value: Self.userAgent)
        if let credentials { outgoing.setBasicAuth(username: credentials.user, password: credentials.password) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            outgoing.headers.replaceOrAdd(name: name, value: value)
        }
        do {
            let deadline = NIODeadline.now() + .milliseconds(Int64(timeouts.request * 1000))
            let response = try await client.execute(outgoing, deadline: deadline)
            let body = try await Self.collect(response.body, before: deadline)
            var headers: [String: String] = [:]
            for header in response.headers {
                let name = header.name.lowercased()
                headers[name] = headers[name].map { "\($0), \(header.value)" } ?? header.value
            }
            // One copy of the bytes (`Data(body.readableBytesView)` would copy them one at a time).
            let data = body.withUnsafeReadableBytes { Data($0) }
            return SourceResponse(status: Int(response.status.code), headers: headers, body: data)
        } catch {
            throw Self.failure(error, timeouts: timeouts)
        }
    }

    /// The body, read before `deadline`: the client's own deadline covers the request up to the response's head,
    /// and its read timeout only a silence, so a server trickling a byte every few seconds would never be given up.
    private static func collect(_ body: HTTPClientResponse.Body, before deadline: NIODeadline) async throws
        -> ByteBuffer
    {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: maximumBodySize) }
            group.addTask {
                let left = deadline - NIODeadline.now()
                try await Task.sleep(for: .nanoseconds(max(0, left.nanoseconds)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else { throw HTTPClientError.deadlineExceeded }
            return buffer
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// The URL without its user information, and the user and password it held.
    static func splitCredentials(_ url: URL) -> (address: String, credentials: (user: String, password: String)?) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let user = components.user
        else { return (url.absoluteString, nil) }
        let password = components.password ?? ""
        components.user = nil
        components.password = nil
        return (components.string ?? url.absoluteString, (user, password))
    }

    /// Why a server cannot be reached at all, in a line that says what to check: a host name that does not resolve,
    /// or a connection refused; `nil` for any other error.
    static func unreachable(_ error: any Error) -> String? {
        if let unknown = error as? SocketAddressError.UnknownHost {
            return "the host \(unknown.host) cannot be found (DNS: \(PrintableText.clean(unknown.errorDescription))); "
                + "check the name in --base-url and the network"
        }
        if let io = error as? IOError, io.errnoCode == ECONNREFUSED {
            return "the connection was refused; check --base-url, and that the server is running"
        }
        guard let failed = error as? NIOConnectionError else { return nil }
        let place = "\(failed.host):\(failed.port)"
        if failed.connectionErrors.isEmpty, let dns = failed.dnsAError ?? failed.dnsAAAAError {
            let reason = (dns as? SocketAddressError.UnknownHost).map { PrintableText.clean($0.errorDescription) }
            return "the host \(failed.host) cannot be found (DNS\(reason.map { ": \($0)" } ?? "")); "
                + "check the name in --base-url and the network"
        }
        let refused = failed.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
        return refused ? "\(place) refused the connection; check --base-url, and that the server is running" : nil
    }

    /// What a client error means for the harvest, in words a user can act on (no Swift type names): a failure
    /// that asking again would repeat is final; the rest (timeouts, dropped connections) is retried.
    static func failure(_ error: any Error, timeouts: HTTPTimeouts = HTTPTimeouts()) -> HarvestFailure {
        if error is NIOTooManyBytesError {
            return .unusableResponse("it is larger than \(maximumBodySize >> 20) MB")
        }
        // swift-nio-extras' decompression error, known by name: Vitrine does not link that module itself.
        if String(reflecting: type(of: error)).contains("DecompressionError") {
            return .unusableResponse("its compressed body does not decompress (a broken or oversized gzip stream)")
        }
        if let unreachable = unreachable(error) { return .unreachable(unreachable) }
        guard let error = error as? HTTPClientError else {
            return .connection(PrintableText.clean(String(describing: error)))
        }
        switch error {
        case .deadlineExceeded:
            return .connection("no complete answer within \(seconds(timeouts.request)) (--request-timeout)")
        case .readTimeout:
            return .connection("the server went silent for \(seconds(timeouts.read)) (--read-timeout)")
        case .connectTimeout, .getConnectionFromPoolTimeout:
            return .connection("could not connect within \(seconds(timeouts.connect)) (--connect-timeout)")
        case .remoteConnectionClosed, .cancelled:
            return .connection("the server closed the connection")
        case .redirectCycleDetected:
            return .unusableResponse("the server redirects in a loop")
        case .redirectLimitReached:
            return .unusableResponse("the server redirects too many times")
        case .invalidURL, .emptyHost, .emptyScheme:
            return .unusableResponse("the URL cannot be requested; check --base-url")
        default:
            return .connection("the HTTP exchange failed (\(error.shortDescription))")
        }
    }
}
