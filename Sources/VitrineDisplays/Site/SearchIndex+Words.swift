import Foundation
import VitrineCore

// The words a search finds an object by: the same folding and splitting as `words` in `gallery.js`, byte by byte
// where the text is ASCII. Apart from `SearchIndex.swift` because it is text handling, not the index's shards.
extension SearchIndex {
    /// Lower case, accents and case folded, letters such as `ø` and `æ` spelt out (`LatinLetters`), split on
    /// anything but letters, digits and marks, Chinese and Japanese in pairs of characters (`foldedWords`): the same
    /// as the `words` function in `gallery.js`.
    static func words(_ text: String) -> [String] {
        var folded: [String: [String]] = [:]
        return words(text, folded: &folded)
    }

    /// `words`, byte by byte: ASCII separators split the text into runs, an ASCII run is lower-cased, and a run
    /// with other letters goes through `foldedWords` (once for each distinct run, kept in `folded`). Folding works
    /// scalar by scalar and leaves ASCII separators as they are, so this gives what folding the whole text gives.
    static func words(_ text: String, folded: inout [String: [String]]) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text) }
        var words: [String] = []
        var word: [UInt8] = []
        var beyondASCII = false
        var start = text.utf8.startIndex
        func endRun(_ end: String.Index) {
            if beyondASCII {
                let run = String(text[start..<end])
                if let known = folded[run] {
                    words += known
                } else {
                    let made = foldedWords(run)
                    folded[run] = made
                    words += made
                }
            } else if !word.isEmpty {
                words.append(String(decoding: word, as: UTF8.self))
            }
            word.removeAll(keepingCapacity: true)
            beyondASCII = false
        }
        var index = text.utf8.startIndex
        while index < text.utf8.endIndex {
            let byte = text.utf8[index]
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte | 0x20)
            case 0x80...: beyondASCII = true
            default:
                endRun(index)
                start = text.utf8.index(after: index)
            }
            index = text.utf8.index(after: index)
        }
        endRun(text.utf8.endIndex)
        return words
    }

    /// `words` for text with letters beyond ASCII, scalar by scalar as `gallery.js` does it: compatibility
    /// decomposition (NFKD: `ﬁ` is `fi`, full-width `Ａ` is `A`), combining accents and kana voicing marks dropped,
    /// lower case, `LatinLetters` spelt out and a final `ς` as `σ`; then runs of letters, digits and marks (any
    /// script), where Chinese and Japanese text, written without spaces, is cut into overlapping pairs of
    /// characters (`葛飾北斎` is `葛飾 飾北 北斎`).
    static func foldedWords(_ text: String) -> [String] {
        var kept = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars
        where !(0x300...0x36F).contains(scalar.value) && scalar.value != 0x3099 && scalar.value != 0x309A {
            kept.append(scalar)
        }
        var folded = LatinLetters.spellOut(String(kept).lowercased())
        if folded.contains("ς") { folded = folded.replacingOccurrences(of: "ς", with: "σ") }
        var words: [String] = []
        var run = String.UnicodeScalarView()
        var runIsCJK = false
        func endRun() {
            defer { run = String.UnicodeScalarView() }
            guard runIsCJK, run.count > 1 else {
                if !run.isEmpty { words.append(String(run)) }
                return
            }
            let scalars = Array(run)
            for index in 0..<(scalars.count - 1) {
                words.append(String(String.UnicodeScalarView([scalars[index], scalars[index + 1]])))
            }
        }
        for scalar in folded.unicodeScalars {
            guard isWordScalar(scalar) else {
                endRun()
                continue
            }
            let cjk = isCJK(scalar)
            if cjk != runIsCJK { endRun() }
            runIsCJK = cjk
            run.append(scalar)
        }
        endRun()
        return words
    }

    /// A letter, digit or mark of any script (`\p{L}`, `\p{N}`, `\p{M}` in `gallery.js`).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            true
        default: false
        }
    }

    /// Kana and Chinese characters (`cjk` in `gallery.js`): text in them is cut into pairs.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F:
            true
        default: false
        }
    }

    /// `words` for ASCII text, where folding is lower-casing: byte by byte.
    fileprivate static func asciiWords(_ text: String) -> [String] {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte | 0x20)
            default:
                if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }
}
