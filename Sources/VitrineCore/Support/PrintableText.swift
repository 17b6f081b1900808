import Foundation

/// Text from a server made safe to show: on a terminal, an error body with escape sequences must not retitle,
/// recolour or clear it; in a catalog, a NUL or an escape must not reach a CSV cell or a page; and text that
/// reorders itself (U+202E) must not disguise a line or a file name.
package enum PrintableText {
    /// `text` without C0 controls, DEL, C1 controls, the line and paragraph separators (every line break becomes
    /// a space), the bidirectional overrides and isolates, zero-width spaces and byte-order marks; itself when it
    /// has none, which is the common case and costs no copy.
    package static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isLineBreak(scalar) {
                result.append(" ")
            } else if !isUnprintable(scalar) {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text` in Unicode's composed form (NFC), as the makers' names are, so that one name is one string of bytes
    /// in every column and on every page. Text `isComposed` tells is composed already costs no copy.
    package static func composed(_ text: String) -> String {
        isComposed(text.utf8) ? text : streamSafe(text).precomposedStringWithCanonicalMapping
    }

    /// `text` with at most 30 combining marks in a row, as Unicode's Stream-Safe Text Format allows (UAX #15): no
    /// script needs more, and composing reorders a run of them in time that grows with its square.
    static func streamSafe(_ text: String) -> String {
        var run = 0
        var cut = false
        for scalar in text.unicodeScalars {
            // Below U+0300 no scalar is a combining mark: most text is never looked up.
            run = scalar.value < 0x300 || scalar.properties.canonicalCombiningClass == .notReordered ? 0 : run + 1
            if run > 30 {
                cut = true
                break
            }
        }
        guard cut else { return text }
        var result = String.UnicodeScalarView()
        run = 0
        for scalar in text.unicodeScalars {
            run = scalar.value < 0x300 || scalar.properties.canonicalCombiningClass == .notReordered ? 0 : run + 1
            if run <= 30 { result.append(scalar) }
        }
        return String(result)
    }

    /// Whether UTF-8 text is composed by its bytes alone: every scalar is below U+0300, Cyrillic (U+0400…U+04FF),
    /// Latin Extended Additional (U+1E00…U+1EFF, Vietnamese), punctuation, symbols and number forms from U+2002 to
    /// U+218F (but for the combining marks for symbols and the three letterlike singletons, Ω K Å), or a CJK
    /// ideograph (U+4000…U+9FFF): none of these decomposes or joins what is before it. Anything else (a combining
    /// mark, Greek, Arabic, kana, Hangul) is left to Foundation.
    static func isComposed(_ utf8: String.UTF8View) -> Bool {
        var bytes = utf8.makeIterator()
        while let byte = bytes.next() {
            // Bytes below 0xCC are ASCII, continuations, or the lead bytes of U+0080…U+02FF.
            guard byte >= 0xCC, !(0xD0...0xD3).contains(byte) else { continue }
            guard (0xE1...0xE9).contains(byte), let second = bytes.next(), let third = bytes.next() else {
                return false
            }
            switch (byte, second) {
            case (0xE1, 0xB8...0xBB), (0xE2, 0x81), (0xE2, 0x82), (0xE2, 0x85), (0xE2, 0x86), (0xE4...0xE9, _): continue
            case (0xE2, 0x80) where third >= 0x82, (0xE2, 0x83) where third < 0x90: continue
            case (0xE2, 0x84) where third != 0xA6 && third != 0xAA && third != 0xAB: continue
            default: return false
            }
        }
        return true
    }

    /// `text` with each character `clean` would remove written out (`\u{202E}`), and a backslash doubled: an
    /// identifier keeps what tells it from another, and no two come out the same.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnprintable($0) || $0 == "\\" }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnprintable(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else if scalar == "\\" {
                result += "\\\\"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // The zero-width space and the byte-order mark come from encodings gone wrong, not from a museum.
        case 0x00...0x1F, 0x7F...0x9F, 0x200B, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }

    /// Tabs and the line and paragraph breaks of ASCII, Latin-1 (NEL) and Unicode: they part words.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028...0x2029: true
        default: false
        }
    }
}
