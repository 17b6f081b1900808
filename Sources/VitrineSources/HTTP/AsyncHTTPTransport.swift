import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import VitrineCore

/// Sends requests with AsyncHTTPClient. Returns every response whatever its status (the source decides what
/// a status means); throws only when no response came.
package struct AsyncHTTPTransport: Transport {
    /// Largest body read; a page bigger than this is refused rather than filling memory.
    package static let maximumBodySize = 64 << 20
    /// Sent with every request, naming the tool.
    package static let userAgent = "Vitrine/\(VitrineVersion.current) (museum collection exporter)"

    package let client: HTTPClient
    package let timeout: TimeAmount

    package init(client: HTTPClient = .shared, timeout: TimeAmount = .seconds(60)) {
        self.client = client
        self.timeout = timeout
    }

    package func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
        // `user:password@` in a base URL (a protected mirror) is sent as HTTP Basic authentication, never as part
        // of the URL; messages, logs and cache names show `***@` (see `URLRedaction`).
        let (address, credentials) = Self.splitCredentials(request.url)
        var outgoing = HTTPClientRequest(url: address)
        outgoing.method = .GET
        outgoing.headers.add(name: "User-Agent", value: Self.userAgent)
        if let credentials { outgoing.setBasicAuth(username: credentials.user, password: credentials.password) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            outgoing.headers.replaceOrAdd(name: name, value: value)
        }
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            var headers: [String: String] = [:]
            for header in response.headers {
                let name = header.name.lowercased()
                headers[name] = headers[name].map { "\($0), \(header.value)" } ?? header.value
            }
            // One copy of the bytes (`Data(body.readableBytesView)` would copy them one at a time).
            let data = body.withUnsafeReadableBytes { Data($0) }
            return SourceResponse(status: Int(response.status.code), headers: headers, body: data)
        } catch {
            throw Self.failure(error)
        }
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

    /// What a client error means for the harvest, in words a user can act on (no Swift type names): a failure
    /// that asking again would repeat is final; the rest (timeouts, dropped connections) is retried.
    static func failure(_ error: any Error) -> HarvestFailure {
        if error is NIOTooManyBytesError {
            return .unusableResponse("it is larger than \(maximumBodySize >> 20) MB")
        }
        // swift-nio-extras' decompression error, known by name: Vitrine does not link that module itself.
        if String(reflecting: type(of: error)).contains("DecompressionError") {
            return .unusableResponse("its compressed body does not decompress (a broken or oversized gzip stream)")
        }
        guard let error = error as? HTTPClientError else {
            return .connection(TerminalText.printable(String(describing: error)))
        }
        switch error {
        case .deadlineExceeded, .readTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
            return .connection("timed out")
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
