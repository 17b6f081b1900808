import Foundation
import VitrineCore

// The words a search finds an object by: the same folding and splitting as `words` in `gallery.js`, byte by byte
// where the text is ASCII. Apart from `SearchIndex.swift` because it is text handling, not the index's shards.
extension SearchIndex {
    /// Lower case, accents and case folded, letters such as `ø` and `æ` spelt out (`LatinLetters`), split on
    /// anything but ASCII letters and digits: the same as the `words` function in `gallery.js`.
    static func words(_ text: String) -> [String] {
        var folded: [String: [String]] = [:]
        return words(text, folded: &folded)
    }

    /// `words`, byte by byte: ASCII separators split the text into runs, an ASCII run is lower-cased, and a run
    /// with other letters is folded by Foundation (once for each distinct run, kept in `folded`). Folding works
    /// character by character and leaves ASCII separators as they are, so this gives what folding the whole text
    /// gives.
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

    /// `words` through Foundation's folding, for text with letters beyond ASCII.
    static func foldedWords(_ text: String) -> [String] {
        let folded = LatinLetters.spellOut(
            text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
                .lowercased())
        return folded.split { character in
            !(character.isASCII && (character.isLetter || character.isNumber))
        }.map(String.init)
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
