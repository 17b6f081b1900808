/// Only `http` and `https` URLs reach a catalog: a `javascript:` or `data:` URL from an API is dropped.
package enum SafeURL {
    /// The URL if it is a well-formed `http(s)` URL with a host, else the empty string. Checked byte by byte:
    /// it runs once per object, and a million `URLComponents` cost seconds.
    package static func filter(_ candidate: String?) -> String {
        guard let trimmed = candidate?.trimmingASCIIWhitespace(), !trimmed.isEmpty else { return "" }
        let bytes = trimmed.utf8
        let scheme = bytes.prefix { $0 != UInt8(ascii: ":") }
        let lowered = String(decoding: scheme.map { $0 | 0x20 }, as: UTF8.self)
        guard lowered == "http" || lowered == "https" else { return "" }
        let rest = bytes.dropFirst(scheme.count)
        guard rest.starts(with: "://".utf8) else { return "" }
        let hostStart = rest.dropFirst(3)
        guard let first = hostStart.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "?"),
            first != UInt8(ascii: "#"), first != UInt8(ascii: "@")
        else { return "" }
        // Printable ASCII only: no spaces or control characters that could end an attribute or a link early
        // (the displays escape the rest for their format).
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return "" }
        return trimmed
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, CR, LF); itself when there is
    /// none, which is the common case and costs no copy.
    package func trimmingASCIIWhitespace() -> String {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.first, let last = bytes.last, isSpace(first) || isSpace(last) else { return self }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }),
            let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
