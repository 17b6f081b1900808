import CLibXML2

/// A museum's HTML (the Art Institute's `description`) reduced to plain text: tags dropped, `script` and `style`
/// dropped with their content, entities decoded, paragraphs kept as blank lines and `<br>` as line breaks. No
/// markup from a source passes: what comes out is text, which a display escapes like any other.
package enum HTMLText {
    /// What the element `name` (lowercase) stands for in text: a paragraph's edges a blank line, `<br>` and items a
    /// line break, table cells a space, so that words stay apart; `nil` for inline markup.
    package static func breaks(forTag name: String) -> String? {
        switch name {
        case "p", "div", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "section": "\n\n"
        case "br", "li", "tr", "dt", "dd": "\n"
        case "td", "th": " "
        default: nil
        }
    }

    /// Whether `text` holds a tag of the HTML that descriptions are written in (`<p>`, `</b>`, `<br/>`, `<a href`):
    /// text that only has a `<` in it (`x<y`, `<RHL 1631>`) is prose, not markup.
    package static func hasMarkup(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            var start = open + 1
            if start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
            var end = start
            while end < bytes.count, Tag.isLetter(bytes[end]) || (end > start && (0x31...0x36).contains(bytes[end])) {
                end += 1
            }
            let name = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
            let after = end < bytes.count ? bytes[end] : 0
            if descriptionTags.contains(name), [0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(after) { return true }
            index = open + 1
        }
        return false
    }

    /// Whether `text` holds a tag escaped as text (`&lt;p&gt;`), read by bytes: every description is asked.
    package static func hasEscapedTag(_ text: String) -> Bool {
        let bytes = text.utf8
        var index = bytes.startIndex
        while let amp = bytes[index...].firstIndex(of: UInt8(ascii: "&")) {
            if bytes[amp...].starts(with: "&lt;".utf8) { return true }
            index = bytes.index(after: amp)
        }
        return false
    }

    private static let descriptionTags: Set<String> = [
        "p", "br", "b", "i", "em", "strong", "a", "span", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
        "sup", "sub", "u", "small", "blockquote", "font", "hr", "cite", "q", "abbr", "dl", "dt", "dd", "table", "tr",
        "td", "th", "img", "figure", "figcaption", "section", "article", "header", "footer", "script", "style",
    ]

    /// The text of `html`, cleaned as `DetailText.block` cleans a description; `nil` when nothing is left.
    package static func plainText(_ html: String?) -> String? {
        guard let html, let text = stripped(html) else { return nil }
        // Markup escaped as a whole (`&lt;p&gt;`, as Zenodo sends descriptions): its text too, never its tags. In
        // HTML that has tags of its own, an escaped tag is text the museum shows, and only known tags are markup.
        let escapedAsWhole = html.utf8.contains(UInt8(ascii: "&")) && !hasMarkup(html) && hasMarkup(text)
        return escapedAsWhole ? stripped(text, onlyDescriptionTags: true) : text
    }

    /// The text of `html` with its tags dropped and its entities decoded, once; with `onlyDescriptionTags`, a tag
    /// whose name is not one descriptions are written in (`<Poseuses>`, a comment) stays as text.
    private static func stripped(_ html: String, onlyDescriptionTags: Bool = false) -> String? {
        let bytes = Array(html.utf8)
        guard bytes.contains(UInt8(ascii: "<")) || bytes.contains(UInt8(ascii: "&")) else {
            return DetailText.block(html)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), let tag = Tag(bytes, at: index),
                !onlyDescriptionTags || descriptionTags.contains(String(decoding: tag.name, as: UTF8.self))
            {
                index = tag.end
                if tag.skipsContent, !tag.isClosing {
                    index = closingTagEnd(tag.name, in: bytes, from: index)
                }
                if let breaks = tag.breaks { out.append(contentsOf: breaks) }
            } else if byte == UInt8(ascii: "&"), let (decoded, end) = entity(bytes, at: index) {
                out.append(contentsOf: decoded.utf8)
                index = end
            } else {
                out.append(byte)
                index += 1
            }
        }
        return DetailText.block(String(decoding: out, as: UTF8.self))
    }

    /// A tag, comment or declaration starting at `<`; `nil` when the `<` is text (`a < b`).
    private struct Tag {
        var name: [UInt8]
        var isClosing: Bool
        var end: Int

        init?(_ bytes: [UInt8], at start: Int) {
            var index = start + 1
            guard index < bytes.count else { return nil }
            if bytes[index...].starts(with: Array("!--".utf8)) {
                let close = HTMLText.find(Array("-->".utf8), in: bytes, from: index + 3)
                self.init(name: [], isClosing: false, end: close.map { $0 + 3 } ?? bytes.count)
                return
            }
            let isClosing = bytes[index] == UInt8(ascii: "/")
            if isClosing { index += 1 }
            guard index < bytes.count,
                Self.isLetter(bytes[index]) || bytes[index] == UInt8(ascii: "!")
                    || bytes[index] == UInt8(ascii: "?")
            else { return nil }
            var name: [UInt8] = []
            while index < bytes.count, Self.isLetter(bytes[index]) || (bytes[index] >= 0x30 && bytes[index] <= 0x39) {
                name.append(bytes[index] | 0x20)
                index += 1
            }
            // Attribute values may hold `>`: the tag ends at the first `>` outside quotes.
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
            }
            self.init(name: name, isClosing: isClosing, end: index)
        }

        private init(name: [UInt8], isClosing: Bool, end: Int) {
            self.name = name
            self.isClosing = isClosing
            self.end = end
        }

        var skipsContent: Bool { ["script", "style", "template"].contains(String(decoding: name, as: UTF8.self)) }

        var breaks: [UInt8]? { HTMLText.breaks(forTag: String(decoding: name, as: UTF8.self)).map { Array($0.utf8) } }

        static func isLetter(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
    }

    /// Where the closing tag of `name` ends (case-insensitive), or the end of the text if it never closes.
    private static func closingTagEnd(_ name: [UInt8], in bytes: [UInt8], from start: Int) -> Int {
        let needle = Array("</".utf8) + name
        var index = start
        while let found = find(needle, in: bytes, from: index, ignoringCase: true) {
            let after = found + needle.count
            // `</scripts` closes nothing; its `>` is looked for only once the tag is the one: a look for every such
            // near miss would scan to the end each time.
            if after < bytes.count, !(0x61...0x7A).contains(bytes[after] | 0x20) {
                return bytes[after...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? bytes.count
            }
            index = after
        }
        return bytes.count
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int, ignoringCase: Bool = false)
        -> Int?
    {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            var matches = true
            for offset in 0..<needle.count {
                let byte = bytes[index + offset]
                if byte != needle[offset], !(ignoringCase && byte | 0x20 == needle[offset]) {
                    matches = false
                    break
                }
            }
            if matches { return index }
            index += 1
        }
        return nil
    }

    /// The entity or character reference at `&`, and where it ends; `nil` when it is none Vitrine knows.
    private static func entity(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
        guard let semicolon = bytes[start...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
        let name = String(decoding: bytes[(start + 1)..<semicolon], as: UTF8.self)
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return (String(Character(scalar)), semicolon + 1)
        }
        // HTML 4's named entities, as libxml2 knows them (`&euro;`, `&Egrave;`, `&thinsp;`), and XML's `&apos;`; a
        // soft hyphen is dropped.
        if name == "apos" || name == "shy" { return (name == "apos" ? "'" : "", semicolon + 1) }
        guard
            let entity = name.withCString({
                htmlEntityLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self))
            }),
            let scalar = Unicode.Scalar(entity.pointee.value)
        else { return nil }
        return (String(Character(scalar)), semicolon + 1)
    }
}
