import Foundation

/// What Vitrine knows about one API: how to ask for a page, how to read one, and what its failures mean.
///
/// A source never does I/O itself; the `HarvestWorker` sends its requests through a `Transport`, so a source
/// is tested by feeding it fixture bytes. Adding an API takes one type conforming to this protocol.
package protocol CollectionSource: Sendable {
    /// Name, default base URL and filters, for `vitrine sources` and the summary.
    var descriptor: SourceDescriptor { get }
    /// The first page to fetch.
    var firstPage: PageCursor { get }
    /// The HTTP request for a page.
    func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest
    /// Reads a successful (2xx) response.
    func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage
    /// What a non-2xx response means for this API; `nil` to treat it as a page anyway (e.g. OAI errors sent
    /// with a 4xx status but a readable body).
    func failure(for response: SourceResponse) -> HarvestFailure?
}

extension CollectionSource {
    /// By default a non-2xx status fails the harvest, naming the status.
    package func failure(for response: SourceResponse) -> HarvestFailure? {
        guard !(200..<300).contains(response.status) else { return nil }
        return .httpStatus(response.status, response.bodySnippet)
    }
}

/// An HTTP GET as a source describes it.
package struct SourceRequest: Sendable, Hashable {
    package var url: URL
    /// Extra headers (API keys, versions). Never logged.
    package var headers: [String: String]

    package init(url: URL, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }

    /// The URL with secrets replaced by `***`: the only form that reaches a message, a log or a file.
    package var redactedURL: String { URLRedaction.redact(url.absoluteString) }
}

/// An HTTP response: status, headers (names lower-cased) and body.
package struct SourceResponse: Sendable, Equatable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data

    package init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// The start of the body as one line of text, for error messages.
    package var bodySnippet: String {
        let text = String(decoding: body.prefix(160), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.trimmingCharacters(in: .whitespaces)
    }
}

/// Fetches requests. The HTTP implementation lives in `VitrineSources`; tests and the demo use in-memory ones.
package protocol Transport: Sendable {
    /// Sends a GET and returns the response whatever its status; throws only when no response came.
    func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse
}
