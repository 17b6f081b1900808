/// The one rule for what counts as a web address, used where a source picks links out of a record and where the
/// Presenter lets a link into a catalog: an absolute `http` or `https` URL with a host, in printable ASCII, of at most
/// 4,096 bytes.
/// A `javascript:` or `data:` URL, a relative path, or text with spaces or control characters (which could end
/// an attribute or a link early) is not one. Checked byte by byte: it runs several times per object, and
/// `URLComponents` costs far more.
package enum WebURL {
    /// Whether `text` is a web address by the rule above (no surrounding whitespace allowed).
    package static func isValid(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isValid)
    }

    /// Whether a URL that passed `filter` or `filterBundledPath` is a web address rather than a bundled file's
    /// path: it starts with its scheme (a bundled path has no colon). Cheap: it runs for every card.
    package static func isWebAddress(_ url: String) -> Bool {
        url.utf8.starts(with: "http".utf8) || url.utf8.starts(with: "HTTP".utf8) || url.utf8.contains(UInt8(ascii: ":"))
    }

    /// The URL, trimmed, if it is a web address, else the empty string: what a catalog may link to.
    package static func filter(_ candidate: String?) -> String {
        guard let trimmed = candidate?.trimmingASCIIWhitespace(), isValid(trimmed) else { return "" }
        return trimmed
    }

    /// The path, if it is one the export may write a bundled file to and a catalog may link to relatively:
    /// lower-case letters, digits, `-`, `_`, `.` and `/` between non-empty segments, no `..`, at most 200 bytes;
    /// else the empty string.
    package static func filterBundledPath(_ candidate: String?) -> String {
        guard let path = candidate, !path.isEmpty, path.utf8.count <= 200, !path.hasPrefix("/"), !path.hasSuffix("/"),
            path.utf8.allSatisfy({
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
                    || $0 == UInt8(ascii: "/")
            }),
            !path.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
                $0.isEmpty || $0 == "." || $0 == ".."
            })
        else { return "" }
        return path
    }

    /// The longest address a catalog takes: browsers and servers stop near 8 KB, and one record's megabyte address
    /// would otherwise be written on every page that shows it.
    static let longest = 4_096

    private static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= longest else { return false }
        // The scheme runs to the first colon: `http` or `https` in any case.
        var length = 0
        for expected in "https".utf8 {
            guard length < bytes.count, bytes[length] | 0x20 == expected else { break }
            length += 1
        }
        guard length >= 4 else { return false }
        let rest = UnsafeBufferPointer(rebasing: bytes[length...])
        guard rest.starts(with: "://".utf8), rest.count > 3 else { return false }
        let host = rest[3]
        guard host != UInt8(ascii: "/"), host != UInt8(ascii: "?"), host != UInt8(ascii: "#"), host != UInt8(ascii: "@")
        else { return false }
        return bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
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
