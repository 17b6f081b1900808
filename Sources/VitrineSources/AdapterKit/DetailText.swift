import VitrineCore

/// The cleaning every adapter gives the text of an object's details before it reaches `ObjectDetails`: ends
/// trimmed, ASCII control characters dropped, blank and "null"-like values (`null`, `None`) dropped. The text
/// keeps its Unicode as the source gives it (no NFC or NFD): the Presenter composes what it shows.
package enum DetailText {
    /// A one-line field (title-like: type, place, a material): every run of ASCII whitespace, line breaks
    /// included, becomes one space. `nil` when nothing is left.
    package static func line(_ text: String?) -> String? {
        guard let text else { return nil }
        if isCleanLine(text) { return isNullLike(text) ? nil : text }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isASCIISpace(scalar) {
                pendingSpace = !out.isEmpty
            } else if isControl(scalar) {
                continue
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(scalar)
            }
        }
        return finished(String(out))
    }

    /// A field of several lines (a description, dimensions): line breaks (CR LF, CR, LF) become one newline,
    /// runs of spaces and tabs one space, and more than one blank line one blank line (a paragraph break).
    package static func block(_ text: String?) -> String? {
        guard let text else { return nil }
        if isCleanBlock(text) { return isNullLike(text) ? nil : text }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var pendingBreaks = 0
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            let isCR = scalar == "\r"
            defer { previousWasCR = isCR }
            if scalar == "\n" || isCR {
                if scalar == "\n" && previousWasCR { continue }
                pendingSpace = false
                if !out.isEmpty { pendingBreaks = min(pendingBreaks + 1, 2) }
            } else if isASCIISpace(scalar) {
                pendingSpace = !out.isEmpty && pendingBreaks == 0
            } else if isControl(scalar) {
                continue
            } else {
                if pendingBreaks > 0 {
                    out.append(contentsOf: pendingBreaks == 1 ? "\n".unicodeScalars : "\n\n".unicodeScalars)
                } else if pendingSpace {
                    out.append(" ")
                }
                pendingBreaks = 0
                pendingSpace = false
                out.append(scalar)
            }
        }
        return finished(String(out))
    }

    /// Each of `texts` as `line` cleans it, blanks dropped, each kept once (composed and decomposed spellings are
    /// one), in order; the first `limit` of them, so that a record listing thousands costs at most `limit`
    /// comparisons a value.
    package static func lines(_ texts: some Sequence<String>, limit: Int = ObjectDetails.listLimit) -> [String] {
        var kept: [String] = []
        for text in texts {
            guard kept.count < limit else { break }
            guard let clean = line(text), !kept.contains(clean) else { continue }
            kept.append(clean)
        }
        return kept
    }

    /// The text as it is, or `nil` when it is blank or null-like: for the fields a catalog files and heads by
    /// (title, maker, date), which the Presenter cleans itself.
    package static func given(_ text: String?) -> String? {
        guard let text, finished(text) != nil else { return nil }
        return text
    }

    /// Whether a value means "no value" in the JSON or XML it came from.
    package static func isNullLike(_ text: String) -> Bool {
        guard text.utf8.count <= 9 else { return false }
        switch text.lowercased() {
        case "", "null", "(null)", "none", "nil", "undefined", "nan": return true
        default: return false
        }
    }

    /// The text with any Unicode whitespace left at its ends removed; `nil` when empty or null-like.
    private static func finished(_ text: String) -> String? {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        let trimmed = String(scalars)
        return isNullLike(trimmed) ? nil : trimmed
    }

    /// Most values need no cleaning: printable ASCII or UTF-8 with single inner spaces and ASCII ends. Checked
    /// byte by byte, so a clean value is returned without being copied.
    private static func isCleanLine(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F
        else { return false }
        var previousWasSpace = false
        for byte in utf8 {
            if byte == 0x20 {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else {
                if byte < 0x20 || byte == 0x7F { return false }
                previousWasSpace = false
            }
        }
        return true
    }

    /// `isCleanLine` for a block: a line feed may stand between two clean lines, and two of them between
    /// paragraphs, with no space beside them. Most descriptions are one clean paragraph or a few.
    private static func isCleanBlock(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F
        else { return false }
        var previous: UInt8 = 0
        var feeds = 0
        for byte in utf8 {
            switch byte {
            case 0x0A:
                feeds += 1
                if feeds > 2 || previous == 0x20 { return false }
            case 0x20:
                if previous == 0x20 || previous == 0x0A { return false }
                feeds = 0
            default:
                if byte < 0x20 || byte == 0x7F { return false }
                feeds = 0
            }
            previous = byte
        }
        return true
    }

    private static func isASCIISpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || (0x09...0x0D).contains(scalar.value)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// `1606–1669`, `born 1606`, `died 1669`: years of ISO dates (`1606-07-15`), other text as written; with a
    /// place of birth `1606–1669, born in Leiden`, `born 1606 in Leiden`.
    package static func lifeDates(born: String?, died: String?, place: String? = nil) -> String? {
        let dates: String? =
            switch (born.map(year), died.map(year)) {
            case (let born?, let died?): "\(born)–\(died)"
            case (let born?, nil): "born \(born)"
            case (nil, let died?): "died \(died)"
            case (nil, nil): nil
            }
        guard let place else { return dates }
        guard let dates else { return "born in \(place)" }
        return born != nil && died == nil ? "\(dates) in \(place)" : "\(dates), born in \(place)"
    }

    /// The year of an ISO date (`1606-07-15`, `1606`); other text (`c. 1669`) as it is.
    private static func year(_ date: String) -> String {
        let utf8 = Array(date.utf8)
        let isDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) }
        guard utf8.count >= 4, utf8.prefix(4).allSatisfy(isDigit), utf8.count == 4 || utf8[4] == UInt8(ascii: "-")
        else { return date }
        return String(date.prefix(4))
    }
}
