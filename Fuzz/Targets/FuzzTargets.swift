import Foundation
import VitrineCore
import VitrineOAIPMH
import VitrineSources

/// What the fuzz targets feed their input to, in a library of its own so that the unit tests replay every input
/// that once crashed (`Tests/Fixtures/fuzz-regressions/`) through exactly the same code. Each must return for any
/// bytes: no crash, no hang, no leak.
package enum FuzzTargets {
    /// Any bytes as an OAI-PMH response: the streaming reader and the mappers, the repair of malformed pages, and
    /// the resumption-token peek.
    package static func oaiPMH(_ data: Data) {
        let mapper = OAIRecordMapper(language: "en")
        _ = try? OAIPMHPageParser.parse(data, mapper: mapper)
        _ = try? OAIPMHPageParser.parse(data)
        if let mended = XMLRepair.repaired(data) {
            _ = try? OAIPMHPageParser.parse(mended.data, mapper: mapper)
        }
        if let base = URL(string: "http://127.0.0.1/oai") {
            let source = OAIPMHSource(
                descriptor: OAIPMHSource.genericDescriptor, baseURL: base, metadataPrefix: "oai_dc")
            _ = source.peekNext(SourceResponse(status: 200, body: data))
        }
    }

    /// Any bytes as a page of every JSON API (AIC, The Met's object and id list, Unsplash's list and search, the
    /// legacy Rijksmuseum API), through each source's decoder.
    package static func json(_ data: Data) {
        guard let base = URL(string: "http://127.0.0.1/api") else { return }
        let response = SourceResponse(
            status: 200, headers: ["link": "<http://127.0.0.1/api/photos?page=9>; rel=\"last\""],
            body: data)
        _ = try? ArtInstituteSource(baseURL: base).decode(response, page: .number(1))
        _ = try? ArtInstituteSource(baseURL: base, query: "x").decode(response, page: .number(1))
        _ = try? MetSource(baseURL: base).decode(response, page: .token(nil))
        _ = try? MetSource(baseURL: base, query: "x").decode(response, page: .number(0))
        _ = try? MetSource(baseURL: base).decode(response, page: .object("1"))
        _ = try? UnsplashSource(baseURL: base, key: "k").decode(response, page: .number(1))
        _ = try? UnsplashSource(baseURL: base, key: "k", query: "x").decode(response, page: .number(1))
        _ = try? RijksmuseumLegacySource(baseURL: base, key: nil).decode(response, page: .number(0))
    }

    /// Any text as the small things servers and users write: a `Retry-After`, a `Link` header, an OAI-PMH
    /// datestamp (`--from`), a URL to redact or check, text to print or to name a file by.
    package static func text(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        let response = SourceResponse(status: 429, headers: ["Retry-After": text, "link": text], body: Data())
        if let seconds = response.retryAfter() {
            precondition(seconds >= 0 && seconds <= SourceResponse.longestRetryAfter, "Retry-After out of range")
            _ = RetryPolicy(jitter: { 0 }).delay(beforeRetry: 1, after: .throttled("", retryAfter: seconds))
        }
        _ = LinkHeader.parse(text)
        _ = OAIPMHSource.isDatestamp(text)
        _ = URLRedaction.redact(text)
        _ = WebURL.filter(text)
        let printable = PrintableText.clean(text)
        precondition(!printable.unicodeScalars.contains { $0.value < 0x20 }, "a control character was left")
        let slug = Slug.make(text)
        precondition(!slug.isEmpty && !slug.contains("/") && !slug.hasPrefix("."), "an unsafe file name")
        _ = NumberText.seconds(Double(text) ?? 0)
    }
}
