import Foundation

/// The order of sections in a catalog: by index letter (A to Z, then `#`), then by maker with case, accents and
/// leading punctuation ignored (`Émile` files with `E`, `'t Hooft` with `T`), ties by the name itself, so the
/// order is total, each letter's makers stand together, and it is the same on every machine; the unknown maker's
/// section last.
package enum SectionOrder {
    /// The positions of `sections` in catalog order: by the name each files under (its sort name, else its
    /// maker's name), ties by the maker's name. Each name is folded once, not once per comparison: real
    /// collections have 50,000 makers.
    package static func order(
        _ sections: [(maker: String?, count: Int)], sortNames: [String: String] = [:]
    ) -> [Int] {
        var known: [(index: Int, letter: String, key: String)] = sections.indices.compactMap { index in
            sections[index].maker.map { maker in
                let filedUnder = sortNames[maker] ?? maker
                // `#` (any other first character) after `Z`.
                let letter = SortKey.letter(of: filedUnder)
                return (index, letter == "#" ? "~" : letter, SortKey.key(for: filedUnder))
            }
        }
        known.sort { left, right in
            if left.letter != right.letter { return left.letter < right.letter }
            if left.key != right.key {
                return left.key.unicodeScalars.lexicographicallyPrecedes(right.key.unicodeScalars)
            }
            return (sections[left.index].maker ?? "").unicodeScalars.lexicographicallyPrecedes(
                (sections[right.index].maker ?? "").unicodeScalars)
        }
        return known.map(\.index) + sections.indices.filter { sections[$0].maker == nil }
    }
}

/// A maker's name folded for comparison: case, accents and width ignored, from its first letter or digit.
package enum SortKey {
    /// The name folded for comparison, from its first letter or digit: leading punctuation and invisible
    /// characters (`'t Hooft`, `(Workshop of) Rubens`, a bidi mark) are passed over, as the index letter is.
    package static func key(for name: String) -> String {
        var folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        // Letters no accent folding reaches (`Østergaard` files with O, `Łempicka` with L).
        if folded.unicodeScalars.contains(where: { ligatures[$0] != nil }) {
            folded = String(folded.unicodeScalars.map { ligatures[$0] ?? String($0) }.joined())
        }
        guard let start = folded.unicodeScalars.firstIndex(where: isLetterOrDigit) else { return folded }
        return String(folded.unicodeScalars[start...])
    }

    private static let ligatures: [Unicode.Scalar: String] = [
        "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ß": "ss", "ı": "i",
    ]

    /// The index letter of a name: its first letter with accents and case folded, `#` when not A–Z.
    package static func letter(of name: String) -> String {
        guard let first = key(for: name).unicodeScalars.first(where: isLetterOrDigit) else { return "#" }
        let upper = String(first).uppercased()
        return ("A"..."Z").contains(upper) && upper.count == 1 ? upper : "#"
    }

    /// A modifier letter (`ʼ`, an apostrophe written as a letter) is not where a name starts.
    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.properties.isAlphabetic && scalar.properties.generalCategory != .modifierLetter)
            || ("0"..."9").contains(scalar)
    }
}
