import Foundation
import VitrineCore

// An answer as it comes, before its XML is read: in UTF-16, a maintenance page where a list belongs, a page cut short.
extension OAIPMHSource {
    /// A UTF-16 answer (a byte-order mark first; the protocol asks for UTF-8, some servers send it) as UTF-8, its
    /// declaration saying so; any other answer as it came.
    static func inUTF8(_ response: SourceResponse) -> SourceResponse {
        let body = response.body
        guard body.count >= 2 else { return response }
        let bytes = Array(body)
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): littleEndian = true
        case (0xFE, 0xFF): littleEndian = false
        default: return response
        }
        // A unit that pairs with nothing becomes U+FFFD, as a byte that is not UTF-8 does: the page is still read.
        let units = stride(from: 2, to: bytes.count - 1, by: 2).map { index in
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        var text = String(decoding: units, as: UTF16.self)
        if let declared = text.prefix(200).firstMatch(of: /^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']*)["']/) {
            text.replaceSubrange(declared.output.1.startIndex..<declared.output.1.endIndex, with: "UTF-8")
        }
        var converted = response
        converted.body = Data(text.utf8)
        return converted
    }

    /// A maintenance page or nothing at all where a list's page belongs, sent with 200: worth a retry, as a 503
    /// is. (An `Identify` asked only for the repository's name may be missing: not this.)
    static func unavailablePage(_ response: SourceResponse) -> HarvestFailure? {
        let isBlank = response.firstSignificantByte == nil
        guard (200..<300).contains(response.status), isBlank || !response.looksLikeXML || response.looksLikeWebPage
        else { return nil }
        let sent =
            isBlank
            ? "an empty answer came where OAI-PMH XML belongs"
            : response.looksLikeXML
                ? "a web page came where OAI-PMH XML belongs (maintenance?): \(response.bodySnippet.prefix(80))"
                : "text came where OAI-PMH XML belongs: \(response.bodySnippet.prefix(80))"
        return .unavailable(response.status, sent, retryAfter: response.retryAfter())
    }

    /// Whether an answer opened an OAI-PMH document and never closed its root element (whatever comes after a
    /// closing tag, padding or a server's warning, is no sign of a cut).
    static func isCutShort(_ body: Data) -> Bool {
        guard body.prefix(4_096).range(of: Data("OAI-PMH".utf8)) != nil else { return false }
        return ["</OAI-PMH>", ":OAI-PMH>"].allSatisfy { body.range(of: Data($0.utf8), options: .backwards) == nil }
    }
}
