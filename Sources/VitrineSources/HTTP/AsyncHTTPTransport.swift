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
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .GET
        outgoing.headers.add(name: "User-Agent", value: Self.userAgent)
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
            throw .connection(Self.describe(error))
        }
    }

    /// A short, secret-free description of a client error.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "timed out"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: return String(describing: error)
            }
        }
        if error is NIOTooManyBytesError { return "the response is larger than \(maximumBodySize >> 20) MB" }
        return String(describing: error)
    }
}
