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
    /// Reads a successful (2xx) response. A source whose pages take long to read lets other tasks run while it
    /// reads (the network's work of the next request must not wait for a whole page); a synchronous
    /// implementation satisfies this requirement.
    func decode(_ response: SourceResponse, page: PageCursor) async throws(HarvestFailure) -> SourcePage
    /// What a non-2xx response means for this API; `nil` to treat it as a page anyway (e.g. OAI errors sent
    /// with a 4xx status but a readable body).
    func failure(for response: SourceResponse) -> HarvestFailure?
    /// The next page of a chain, read cheaply from a raw response before it is decoded, so the next request can
    /// travel while this page is parsed; `nil` when the source cannot tell early. It must agree with the
    /// `continuation` of the decoded page; if it does not, the early request is dropped.
    func peekNext(_ response: SourceResponse) -> PageCursor?
    /// The bytes of a file the source bundles for the catalogs (an image whose sizing is `.bundled`), by its path
    /// in the output folder; `nil` for every path of a source that bundles none.
    func bundledFile(at path: String) -> [UInt8]?
    /// The options that change how records are read but not what is asked for (`language=nl`): with the first
    /// request, what names the collection a store keeps.
    var readingOptions: [String] { get }
}

extension CollectionSource {
    /// By default a non-2xx status fails the harvest, naming the status; 429 and 5xx are retried first.
    package func failure(for response: SourceResponse) -> HarvestFailure? {
        response.statusFailure
    }

    package func peekNext(_ response: SourceResponse) -> PageCursor? { nil }

    package func bundledFile(at path: String) -> [UInt8]? { nil }

    package var readingOptions: [String] { [] }

    /// What names the collection a store keeps: the source, its first request without secrets (base URL, filters,
    /// set, metadata format, page size) and its reading options. Another of any of these is another collection.
    package var collectionIdentity: String {
        let first = (try? request(for: firstPage).redactedURL) ?? ""
        return ([descriptor.name, first] + readingOptions).joined(separator: " ")
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

    /// The response with every secret `request` carries written as `***` in its body: a server that echoes the
    /// request in an error page (sent with any status) puts the key into no message, log or stored page.
    package func withoutSecrets(of request: SourceRequest) -> SourceResponse {
        let secrets = URLRedaction.secrets(of: request)
        guard !secrets.isEmpty else { return self }
        var redacted = self
        for secret in secrets {
            let bytes = Data(secret.utf8)
            var from = redacted.body.startIndex
            while let found = redacted.body.range(of: bytes, in: from..<redacted.body.endIndex) {
                redacted.body.replaceSubrange(found, with: Data("***".utf8))
                from = found.lowerBound + 3
            }
        }
        return redacted
    }

    /// The start of the body as one line of printable text, for error messages: a server's control characters
    /// and escape sequences never reach a message.
    package var bodySnippet: String {
        let text = PrintableText.clean(String(decoding: body.prefix(160), as: UTF8.self))
        return text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}

/// Fetches requests. The HTTP implementation lives in `VitrineHTTP`; tests and the demo use in-memory ones.
package protocol Transport: Sendable {
    /// Sends a GET and returns the response whatever its status; throws only when no response came.
    func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse
}

extension SourceResponse {
    /// The longest `Retry-After` read, in seconds (about 30 years): anything longer is this.
    package static let longestRetryAfter = 1e9

    /// The pause `Retry-After` asks for, in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
    package func retryAfter(now: Date = Date()) -> Double? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        // delta-seconds are digits only (`1e20`, `inf`, `-5` are not); a huge one is capped, never converted
        // to an integer that cannot hold it.
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return min(Double(value) ?? Self.longestRetryAfter, Self.longestRetryAfter)
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), Self.longestRetryAfter)
    }

    /// The failure a status means when the API has nothing more specific to say: 429 throttling, 500/502/503/504
    /// unavailable for now (both retried), anything else non-2xx final; `nil` for 2xx.
    package var statusFailure: HarvestFailure? {
        switch status {
        case 200..<300: nil
        case 429: .throttled("the server is throttling requests (HTTP 429)", retryAfter: retryAfter())
        case 500, 502, 503, 504: .unavailable(status, bodySnippet, retryAfter: retryAfter())
        default: .httpStatus(status, bodySnippet)
        }
    }

    /// The body's first byte past whitespace and a UTF-8 byte-order mark: enough to tell JSON, XML and an
    /// HTML or plain-text page apart without parsing.
    package var firstSignificantByte: UInt8? {
        body.prefix(512).first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    }

    /// Whether the body starts like a JSON document (not an HTML challenge page or plain text), or is one of
    /// JSON's literals alone (`null`, which an API may answer for an object it cannot give).
    package var looksLikeJSON: Bool {
        let start = firstSignificantByte
        if start == UInt8(ascii: "{") || start == UInt8(ascii: "[") || start == UInt8(ascii: "\"") { return true }
        guard body.count <= 16 else { return false }
        let literal = body.filter { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return ["null", "true", "false"].contains { literal.elementsEqual($0.utf8) }
    }

    /// Whether the body is a web page, as a server's maintenance or error page is, whatever its status: its
    /// document type is `html`, or its first element is (`<html>`, `<xhtml:html>`), past the XML declaration,
    /// processing instructions and comments. Text further in (a record's CDATA) does not count.
    package var looksLikeWebPage: Bool {
        let bytes = Array(body.prefix(4_096))
        func starts(_ prefix: String, at index: Int) -> Bool {
            bytes[index...].starts(with: prefix.utf8)
        }
        func end(of closing: String, from index: Int) -> Int? {
            bytes[index...].firstRange(of: Array(closing.utf8))?.upperBound
        }
        var index = starts("\u{FEFF}", at: 0) ? 3 : 0
        while true {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else { return false }
            if starts("<?", at: index) || starts("<!--", at: index) {
                guard let next = end(of: starts("<?", at: index) ? "?>" : "-->", from: index) else { return false }
                index = next
            } else if starts("<!", at: index) {
                guard let next = end(of: ">", from: index) else { return false }
                let declaration = String(decoding: bytes[index..<next], as: UTF8.self).lowercased()
                if declaration.hasPrefix("<!doctype html") { return true }
                index = next
            } else {
                var nameEnd = index + 1
                while nameEnd < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(bytes[nameEnd]) {
                    nameEnd += 1
                }
                let name = String(decoding: bytes[(index + 1)..<nameEnd], as: UTF8.self).lowercased()
                return name == "html" || name.hasSuffix(":html")
            }
        }
    }

    /// Whether the body starts like an XML document (or an HTML page: the parser tells them apart).
    package var looksLikeXML: Bool {
        firstSignificantByte == UInt8(ascii: "<")
    }
}
