/// Latin letters that Unicode folding leaves as they are, because they do not decompose into a letter and an
/// accent (`ø` is not `o` with a mark), spelt as a reader types them: `Søren` is slugged and found as `soren`.
/// `gallery.js` spells the same letters the same way, so that a search typed either way finds them.
package enum LatinLetters {
    /// Lower-case letters only: they are spelt out after case folding.
    package static let spelt: [Character: String] = [
        "ø": "o", "æ": "ae", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "œ": "oe", "ı": "i", "ħ": "h",
        "ŧ": "t", "ŀ": "l",
    ]

    /// `text`, already case-folded, with those letters spelt out.
    package static func spellOut(_ text: String) -> String {
        guard text.contains(where: { spelt[$0] != nil }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if let spelling = spelt[character] { result += spelling } else { result.append(character) }
        }
        return result
    }
}
