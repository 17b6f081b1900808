import Foundation
import VitrineCore

/// The gallery's search index: for every word of every title and maker name, the objects it occurs in, split
/// into shards by the word's first letters so that a query downloads one small file. A shard over
/// `shardLimit` objects is split again by one more letter (words that end there stay in a shard marked `$`),
/// so common words (`portret`, `study`) never make one huge download. A shard that cannot be split (every
/// object is called `Study`) keeps its first `shardLimit` objects; the manifest gives each shard's full count,
/// so the page searches by the query's rarest word and says when a list was cut.
///
/// Files are scripts (`Vitrine.shard("mil", [...])`) rather than bare JSON: a page opened from `file://` may
/// load scripts but not fetch files. The payload is JSON: `[title, maker, detail page, thumbnail URL]`.
struct SearchIndex {
    /// Largest number of objects in a shard, unless its words cannot be split further.
    static let shardLimit = 2_000
    /// Shard keys start with this many letters (shorter words are not indexed).
    static let firstKeyLength = 2
    /// Keys never grow past this: the words beyond are alike for search purposes.
    static let longestKey = 8

    /// The objects' entries, and for each folded word the objects it occurs in.
    private var entries: [[String]] = []
    private var postings: [String: [Int]] = [:]
    /// Shard key → the objects in it, in catalog order.
    private(set) var shards: [String: [Int]] = [:]

    init(_ viewModel: CatalogViewModel) {
        for section in viewModel.sections {
            for object in section.objects {
                let number = entries.count
                entries.append([object.title, object.maker, object.pageName, object.thumbnailURL])
                var seen: Set<String> = []
                for word in Self.words(object.title + " " + object.maker)
                where word.count >= Self.firstKeyLength && seen.insert(word).inserted {
                    postings[word, default: []].append(number)
                }
            }
        }
        var byPrefix: [String: [String]] = [:]
        for word in postings.keys { byPrefix[String(word.prefix(Self.firstKeyLength)), default: []].append(word) }
        var shards: [String: [Int]] = [:]
        for (prefix, words) in byPrefix { split(prefix, words, into: &shards) }
        self.shards = shards
    }

    /// Lower case, accents and case folded, split on anything but ASCII letters and digits: the same as the
    /// `words` function in `gallery.js`.
    static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
        return folded.split { character in
            !(character.isASCII && (character.isLetter || character.isNumber))
        }.map(String.init)
    }

    private func split(_ prefix: String, _ words: [String], into result: inout [String: [Int]]) {
        let objects = Set(words.flatMap { postings[$0] ?? [] })
        if objects.count <= Self.shardLimit || prefix.count >= Self.longestKey {
            result[prefix] = objects.sorted()
            return
        }
        var longer: [String: [String]] = [:]
        var ending: [String] = []
        for word in words {
            if word.count == prefix.count {
                ending.append(word)
            } else {
                longer[String(word.prefix(prefix.count + 1)), default: []].append(word)
            }
        }
        if !ending.isEmpty { result[prefix + "$"] = Set(ending.flatMap { postings[$0] ?? [] }).sorted() }
        for (key, group) in longer { split(key, group, into: &result) }
    }

    /// `Vitrine.manifest({"ab": 12, "st$": 90910, …})`: every shard key and how many objects match it.
    func manifestScript() -> String {
        "Vitrine.manifest(\(Self.json(shards.mapValues(\.count), sortedKeys: true)));\n"
    }

    /// File name stem (the key, with `$` spelled `-end` for file systems and URLs) → script.
    func shardScripts() -> [(String, String)] {
        shards.sorted { $0.key < $1.key }.map { key, objects in
            let payload = objects.prefix(Self.shardLimit).map { entries[$0] }
            return (Self.fileStem(key), "Vitrine.shard(\(Self.json(key)), \(Self.json(payload)));\n")
        }
    }

    static func fileStem(_ key: String) -> String {
        key.hasSuffix("$") ? String(key.dropLast()) + "-end" : key
    }

    private static func json(_ value: some Encodable, sortedKeys: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = sortedKeys ? [.withoutEscapingSlashes, .sortedKeys] : [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        // `</script>` cannot end the script early in a file, but keep `<` escaped all the same.
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }
}
