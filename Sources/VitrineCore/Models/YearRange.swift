/// The first and last year a date as museums write it may mean, for sorting and browsing by period: `1642`,
/// `c. 1665 - c. 1670`, `1885–86`, `17th century`, `17th–18th century`, `1880s`, `500 BCE`, `ca. 2000–1800 B.C.`,
/// `100 BC – AD 50`, `2015-03-04` (ISO). Years BCE are negative. Where the text holds no year, there is no range:
/// nothing is guessed.
package enum YearRange {
    /// The range `text` names; `nil` when it names no year.
    package static func parse(_ text: String?) -> (begin: Int, end: Int)? {
        guard let text, !text.isEmpty else { return nil }
        // Most dates are a bare year (`1642`), read without the scans below.
        if (3...4).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let year = Int(text)
        {
            return (year, year)
        }
        let lowered = Array(text.lowercased().unicodeScalars)
        if let iso = isoYears(lowered) { return iso }
        let hasCentury = contains(lowered, "cent") || contains(lowered, "eeuw")
        // Each span of years read, and its era (`nil`: none stated yet; it takes the next one stated, else the common
        // era).
        // `century`: the first year of the century a span is (part of), counted forward as in the common era.
        var spans: [(first: Int, last: Int, isBCE: Bool?, century: Int?)] = []
        // A part of the century that follows (`2nd half of the 17th century`, `3de kwart 18de eeuw`): which, of how many.
        var part: (number: Int, of: Int)?
        // Whether the first number has a minus of its own (`-500 – -400`): then so may the others.
        var firstIsMinus: Bool?
        var index = 0
        while index < lowered.count {
            guard isDigit(lowered[index]) else {
                // An era after years is theirs, and of those before them that state none (`2000–1800 B.C.`);
                // `AD` before a number is that number's (`preceding`).
                if let era = era(lowered, at: index), !(era.word == "ad" && nextIsDigit(lowered, index + era.length)) {
                    for span in spans.indices where spans[span].isBCE == nil { spans[span].isBCE = era.isBCE }
                    index += era.length
                } else if hasCentury, let (which, end) = ordinalWord(lowered, at: index),
                    let parts = fraction(lowered, after: end), which <= parts
                {
                    // `first half of the 17th century`, `laatste kwart 18de eeuw` (0: the last part).
                    let chosen = (which == 0 ? parts : which, parts)
                    if !narrowLastCentury(&spans, to: chosen, ifBefore: index, in: lowered) { part = chosen }
                    index = end
                } else {
                    index += 1
                }
                continue
            }
            let start = index
            while index < lowered.count, isDigit(lowered[index]) { index += 1 }
            var digits = String(String.UnicodeScalarView(lowered[start..<index]))
            var longest = 4
            // `12,000 BC`, `100,000 BC`: a group of thousands, read as one number (after three digits only before
            // an era that is BCE: `850,870` is two years).
            if index - start <= 3, index + 3 < lowered.count, lowered[index] == ",",
                lowered[(index + 1)...(index + 3)].allSatisfy(isDigit),
                !isDigit(lowered[index + 4 < lowered.count ? index + 4 : index]),
                index - start <= 2 || followedByEra(lowered, index + 4, isBCE: true)
            {
                digits += String(String.UnicodeScalarView(lowered[(index + 1)...(index + 3)]))
                index += 4
                longest = 6
            }
            guard digits.utf8.count <= longest, let number = Int(digits) else { continue }
            let before = preceding(lowered, start)
            // A minus of the number's own stands at the start, or after a space or an opening (`1650-1655` is a
            // range).
            let minus =
                start > 0 && (lowered[start - 1] == "-" || lowered[start - 1] == "\u{2212}")
                && (start == 1 || [" ", "(", "[", "/", "–", "—"].contains(lowered[start - 2]))
            if firstIsMinus == nil { firstIsMinus = minus }
            let stated = minus && firstIsMinus == true ? true : before.era
            if hasCentury, (1...21).contains(number), let end = ordinalEnd(lowered, index) {
                index = end
                if let parts = fraction(lowered, after: end), number <= parts {
                    if !narrowLastCentury(&spans, to: (number, parts), ifBefore: start, in: lowered) {
                        part = (number, parts)
                    }
                    continue
                }
                var (first, last) = (number * 100 - 100, number * 100 - 1)
                if let (which, parts) = part {
                    first += (which - 1) * 100 / parts
                    last = first + 100 / parts - 1
                    part = nil
                }
                spans.append((first, last, stated, number * 100 - 100))
            } else if index < lowered.count, lowered[index] == "s", index - start >= 3, number % 10 == 0 {
                // `1880s`, `1600s`.
                spans.append((number, number + (number % 100 == 0 ? 99 : 9), stated, number % 100 == 0 ? number : nil))
            } else if index - start == 2, before.dash, let last = spans.last, last.last >= 100 {
                // `1885–86`: the later year's century is the earlier one's.
                let full = last.last / 100 * 100 + number
                let year = full >= last.last ? full : full + 100
                spans.append((year, year, stated, nil))
            } else if index - start >= 3 || stated != nil || followedByEra(lowered, index) {
                spans.append((number, number, stated, nil))
            }
        }
        guard !spans.isEmpty else { return nil }
        var years: [Int] = []
        for span in spans {
            if span.isBCE == true {
                // A century BC (or a part of it) runs the other way from its hundredth year: `1st century BC` is
                // 100 to 1 BC, the first quarter of the 2nd century BC 200 to 176 BC.
                if let century = span.century {
                    years += [span.first - century - (century + 100), span.last - century - (century + 100)]
                } else {
                    years += [-span.first, -span.last]
                }
            } else {
                // There is no year 0: the 1st century is 1 to 99.
                years += [span.first == 0 && span.last > 0 ? 1 : span.first, span.last]
            }
        }
        return (years.min() ?? 0, years.max() ?? 0)
    }

    /// The years a source gives as numbers (the Art Institute's `date_start`, The Met's `objectBeginDate`), with
    /// its date text beside them. Both sources write 0 for a year they do not know: a range missing an end, or
    /// with a 0 one, takes the text's years, or else its other end alone; one given the wrong way round is put
    /// right.
    package static func given(begin: Int?, end: Int?, text: String?) -> (begin: Int, end: Int)? {
        if let begin, let end, begin != 0, end != 0 { return (min(begin, end), max(begin, end)) }
        let known = [begin, end].compactMap { $0 }.first { $0 != 0 }
        return parse(text) ?? known.map { ($0, $0) }
    }

    /// A part written after its century (`17th century, 2nd quarter`): when the words before `index` end in a
    /// century's word and the last span is that whole century, narrows it to the part and returns `true`.
    private static func narrowLastCentury(
        _ spans: inout [(first: Int, last: Int, isBCE: Bool?, century: Int?)], to part: (number: Int, of: Int),
        ifBefore index: Int, in text: [Unicode.Scalar]
    ) -> Bool {
        var end = index
        while end > 0, text[end - 1] == " " || text[end - 1] == "," { end -= 1 }
        guard let last = spans.last, let century = last.century, last.first == century, last.last == century + 99,
            ["century", "eeuw"].contains(where: { word in
                let scalars = Array(word.unicodeScalars)
                return end >= scalars.count && Array(text[(end - scalars.count)..<end]) == scalars
            })
        else { return false }
        let first = century + (part.number - 1) * 100 / part.of
        spans[spans.count - 1].first = first
        spans[spans.count - 1].last = first + 100 / part.of - 1
        return true
    }

    /// `2015-03`, `2015-03-04`, `2015-03-04T10:00:00Z`, `-0050` (and two of them joined by `/`, either end open:
    /// `..`): the years of the dates, not their months and days.
    private static func isoYears(_ text: [Unicode.Scalar]) -> (begin: Int, end: Int)? {
        let parts = String(String.UnicodeScalarView(text)).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        var years: [Int] = []
        // Whether a part is a date or a minus year: two bare years (`1600/1650`) are left to the general reading.
        var isISO = false
        for part in parts {
            let trimmed = part.trimmingPrefix(" ")
            // An open or unknown end of an interval (EDTF, ISO 8601-2: `-0050/..`, `1642/`, `../1700`).
            if parts.count == 2, trimmed.isEmpty || trimmed == ".." {
                isISO = isISO || !trimmed.isEmpty
                continue
            }
            var scalars = Array(trimmed.unicodeScalars)
            // A year before the common era is written with a minus (`-0050`, xsd:gYear), alone or with a date.
            let isBCE = scalars.first == "-"
            if isBCE { scalars.removeFirst() }
            // A short year with a minus, the whole part (`-500`, `-50`), is one too: as a number, it is no other.
            if isBCE, (1...3).contains(scalars.count), scalars.allSatisfy(isDigit),
                let year = Int(String(String.UnicodeScalarView(scalars))), year > 0
            {
                isISO = true
                years.append(-year)
                continue
            }
            guard scalars.count >= 4, scalars[..<4].allSatisfy(isDigit),
                let year = Int(String(String.UnicodeScalarView(scalars[..<4])))
            else { return nil }
            isISO = isISO || isBCE || scalars.count > 4
            if scalars.count == 4 {
                years.append(isBCE ? -year : year)
                continue
            }
            // A month is 01 to 12: `1885-86` is a range of years.
            guard scalars.count >= 7, scalars[4] == "-", scalars[5...6].allSatisfy(isDigit),
                scalars.count == 7 || scalars[7] == "-",
                let month = Int(String(String.UnicodeScalarView(scalars[5...6]))), (1...12).contains(month)
            else { return nil }
            years.append(isBCE ? -year : year)
        }
        guard isISO, let first = years.min(), let last = years.max() else { return nil }
        return (first, last)
    }

    /// The end of an ordinal's suffix after a number that ends at `index` (`17th`, `1st`, `17e`, `17de`); `nil`
    /// when none follows.
    private static func ordinalEnd(_ text: [Unicode.Scalar], _ index: Int) -> Int? {
        for suffix in ["th", "st", "nd", "rd", "de", "e"] {
            let scalars = Array(suffix.unicodeScalars)
            guard index + scalars.count <= text.count, Array(text[index..<(index + scalars.count)]) == scalars else {
                continue
            }
            let end = index + scalars.count
            if end == text.count || !text[end].properties.isAlphabetic { return end }
        }
        return nil
    }

    /// An ordinal written as a word starting at `index` (`first`, `tweede`; `last`, `laatste` are 0) and where it
    /// ends; `nil` for any other word.
    private static func ordinalWord(_ text: [Unicode.Scalar], at index: Int) -> (Int, Int)? {
        guard index == 0 || !text[index - 1].properties.isAlphabetic else { return nil }
        var end = index
        while end < text.count, text[end].properties.isAlphabetic { end += 1 }
        let words = [
            "first": 1, "second": 2, "third": 3, "fourth": 4, "last": 0,
            "eerste": 1, "tweede": 2, "derde": 3, "vierde": 4, "laatste": 0,
        ]
        return words[String(String.UnicodeScalarView(text[index..<end]))].map { ($0, end) }
    }

    /// How many parts a century is cut into when a word for a part follows an ordinal (`half`, `helft`: 2;
    /// `quarter`, `kwart`: 4); `nil` for any other word.
    private static func fraction(_ text: [Unicode.Scalar], after index: Int) -> Int? {
        var start = index
        while start < text.count, text[start] == " " { start += 1 }
        var end = start
        while end < text.count, text[end].properties.isAlphabetic { end += 1 }
        switch String(String.UnicodeScalarView(text[start..<end])) {
        case "half", "helft": return 2
        case "quarter", "kwart": return 4
        default: return nil
        }
    }

    /// What stands before a number: a dash or slash (a range's second half), and an era stated before it (`AD 50`).
    private static func preceding(_ text: [Unicode.Scalar], _ start: Int) -> (dash: Bool, era: Bool?) {
        var index = start - 1
        while index >= 0, text[index] == " " { index -= 1 }
        let dash = index >= 0 && ["-", "–", "—", "/"].contains(text[index])
        let wordEnd = index + 1
        while index >= 0, text[index].properties.isAlphabetic || text[index] == "." { index -= 1 }
        let word = String(String.UnicodeScalarView(text[(index + 1)..<wordEnd])).filter { $0 != "." }
        return (dash, word == "ad" ? false : nil)
    }

    /// Whether an era follows the number that ends at `index` (`500 BC`, `30 AD`): then even a short number is a year.
    private static func followedByEra(_ text: [Unicode.Scalar], _ index: Int, isBCE: Bool? = nil) -> Bool {
        var next = index
        while next < text.count, text[next] == " " { next += 1 }
        guard next < text.count, let era = era(text, at: next) else { return false }
        return isBCE.map { $0 == era.isBCE } ?? true
    }

    /// An era word starting at `index`, on its own (`bc`, `b.c.`, `bce`, `v. chr`, `ad`, `a.d.`, `ce`, `n. chr`):
    /// whether it is before the common era, the word without its dots, and its length.
    private static func era(_ text: [Unicode.Scalar], at index: Int) -> (isBCE: Bool, word: String, length: Int)? {
        guard index == 0 || !text[index - 1].properties.isAlphabetic else { return nil }
        let words: [(String, Bool)] = [
            ("b.c.e.", true), ("b.c.e", true), ("b.c.", true), ("b.c", true), ("bce", true), ("bc", true),
            ("v. chr", true), ("v.chr", true), ("a.d.", false), ("a.d", false), ("ad", false), ("ce", false),
            ("n. chr", false), ("n.chr", false),
        ]
        for (word, isBCE) in words {
            let scalars = Array(word.unicodeScalars)
            guard index + scalars.count <= text.count, Array(text[index..<(index + scalars.count)]) == scalars else {
                continue
            }
            let end = index + scalars.count
            if end == text.count || !text[end].properties.isAlphabetic {
                return (isBCE, word.filter { $0 != "." }, scalars.count)
            }
        }
        return nil
    }

    /// Whether the next thing after `index`, spaces aside, is a digit.
    private static func nextIsDigit(_ text: [Unicode.Scalar], _ index: Int) -> Bool {
        var next = index
        while next < text.count, text[next] == " " { next += 1 }
        return next < text.count && isDigit(text[next])
    }

    private static func contains(_ text: [Unicode.Scalar], _ word: String) -> Bool {
        String(String.UnicodeScalarView(text)).contains(word)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
