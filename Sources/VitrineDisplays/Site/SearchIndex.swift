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
/// load scripts but not fetch files. The payload is JSON: `[title, maker, detail page, thumbnail URL, number, date]`.
struct SearchIndex: Sendable {
    /// Largest number of objects in a shard, unless its words cannot be split further.
    static let shardLimit = 2_000
    /// Shard keys start with this many letters (shorter words are not indexed), one for Chinese and Japanese,
    /// whose words are pairs of characters.
    static let firstKeyLength = 2
    /// Keys never grow past this: the words beyond are alike for search purposes.
    static let longestKey = 8

    /// Every object's entry (`[title, maker, detail page, thumbnail URL, number, date]` as JSON) by object number, made
    /// as each part of the catalog passes (its display strings are let go after it).
    private var entries: SpilledRecords
    /// For each folded word, the objects it occurs in (by number).
    private var postings = Postings()
    /// Shard key → the objects in it, in catalog order (once `finish` has run).
    private(set) var shards: [String: [Int32]] = [:]
    /// The words of each run of text with letters beyond ASCII, folded once: titles repeat their `№`, `é`, `ü`.
    private var folded: [String: [String]] = [:]

    init(entries: SpilledRecords = SpilledRecords()) {
        self.entries = entries
    }

    /// How many times entries went to the scratch file.
    var spills: Int { entries.spills }

    /// Indexes the objects of a part of the catalog, which come after every part added before.
    mutating func add(_ catalog: CatalogViewModel, sections: Range<Int>) throws(ExportError) {
        for sectionIndex in sections {
            let section = catalog.sections[sectionIndex]
            // Every object of a section has its maker's words: folded once.
            let makerWords = section.isUnknownMaker ? [] : Self.words(section.name, folded: &folded)
            // Each object read where it is: a copy of it would retain and release each of its strings.
            let objects = section.objects
            for index in objects.indices {
                let number = Int32(entries.count)
                // Title, maker, date and number by their words, and the number as one word too (`SK-C-5` as `skc5`),
                // which a query typed without spaces is looked up as first.
                let numberWords = Self.words(objects[index].id, folded: &folded)
                let words =
                    Self.words(objects[index].title, folded: &folded) + (objects[index].maker.isEmpty ? [] : makerWords)
                    + Self.words(objects[index].date, folded: &folded) + numberWords
                    + (numberWords.count > 1 ? [numberWords.joined()] : [])
                // Most objects have a dozen words or so: looking back along them costs less than a set of them. A
                // long title (up to 2,000 characters) gets the set.
                var seen: Set<String> = []
                for (position, word) in words.enumerated()
                where word.count >= Self.firstKeyLength || word.unicodeScalars.first.map(Self.isCJK) == true {
                    let repeated =
                        words.count <= 16 ? words[..<position].contains(word) : !seen.insert(word).inserted
                    // Shards never split past `longestKey` letters, so a word is posted by those alone: object
                    // numbers, all different, would each be a word of their own in memory.
                    let key = word.utf8.count > Self.longestKey ? String(word.prefix(Self.longestKey)) : word
                    if !repeated { postings.append(number, to: key) }
                }
                try entries.append { entry in
                    entry.append(UInt8(ascii: "["))
                    for (position, text) in [
                        objects[index].title, objects[index].maker, objects[index].pageName,
                        objects[index].thumbnailURL, objects[index].id, objects[index].date,
                    ].enumerated() {
                        if position > 0 { entry.append(UInt8(ascii: ",")) }
                        JSONText.append(text, to: &entry)
                    }
                    entry.append(UInt8(ascii: "]"))
                }
            }
        }
    }

    /// Splits the words into shards, once every part is added.
    mutating func finish() async throws(ExportError) {
        try entries.finish()
        var byPrefix: [String: [String]] = [:]
        postings.forEachWord { word in
            let first = word.unicodeScalars.first.map(Self.isCJK) == true ? 1 : Self.firstKeyLength
            byPrefix[String(word.prefix(first)), default: []].append(word)
        }
        // Each first key's words are split on their own, on every core: this runs after the last part, when
        // nothing else keeps the other cores busy.
        let groups = Array(byPrefix)
        let index = self
        let split = await withTaskGroup(of: [String: [Int32]].self) { group in
            for (prefix, words) in groups {
                group.addTask {
                    var shards: [String: [Int32]] = [:]
                    index.split(prefix, words, into: &shards)
                    return shards
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        shards = split.reduce(into: [:]) { all, group in all.merge(group) { first, _ in first } }
        postings = Postings()
    }

    private func split(_ prefix: String, _ words: [String], into result: inout [String: [Int32]]) {
        let all = objects(of: words)
        if all.count <= Self.shardLimit || prefix.count >= Self.longestKey {
            result[prefix] = all
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
        if !ending.isEmpty { result[prefix + "$"] = objects(of: ending) }
        for (key, group) in longer { split(key, group, into: &result) }
    }

    /// The objects any of `words` occurs in, in order, each once: sorted in one array and its repeats dropped (a
    /// `Set` of them, then sorted, would hash every number of every word).
    private func objects(of words: [String]) -> [Int32] {
        var objects: [Int32] = []
        objects.reserveCapacity(words.reduce(0) { $0 + postings.count(of: $1) })
        for word in words { postings.append(of: word, to: &objects) }
        objects.sort()
        var kept = 0
        for number in objects where kept == 0 || objects[kept - 1] != number {
            objects[kept] = number
            kept += 1
        }
        objects.removeLast(objects.count - kept)
        return objects
    }

    /// `Vitrine.manifest({"ab": 12, "st$": 90910, …})`: every shard key and how many objects match it.
    func manifestScript() -> String {
        var script = Array("Vitrine.manifest({".utf8)
        for (position, key) in shards.keys.sorted().enumerated() {
            if position > 0 { script.append(UInt8(ascii: ",")) }
            JSONText.append(key, to: &script)
            script.append(UInt8(ascii: ":"))
            script.append(contentsOf: String(shards[key]?.count ?? 0).utf8)
        }
        script.append(contentsOf: "});\n".utf8)
        return String(decoding: script, as: UTF8.self)
    }

    /// Each shard's key, file stem and script, made and handed to `body` on every core, a shard a job (the scripts of
    /// a million objects are never all in memory at once). They are made after the last part of the catalog, when
    /// nothing else keeps the other cores busy.
    func forEachShard(
        _ body: @escaping @Sendable (String, String, [UInt8]) throws(ExportError) -> Void
    ) async throws(ExportError) {
        try await sideBySide(shards.keys.sorted()) { key throws(ExportError) in
            try body(key, Self.fileStem(key), self.script(key))
        }
    }

    /// A shard's script.
    private func script(_ key: String) -> [UInt8] {
        var script = Array("Vitrine.shard(".utf8)
        JSONText.append(key, to: &script)
        script.append(contentsOf: ", [".utf8)
        entries.append((shards[key] ?? []).prefix(Self.shardLimit), separator: UInt8(ascii: ","), to: &script)
        script.append(contentsOf: "]);\n".utf8)
        return script
    }

    /// A shard's file name: its key, `$` spelled `-end`, and a key beyond ASCII letters and digits as its
    /// scalars in hex (`北` is `_5317`), safe on every file system and in a URL (`fileStem` in `gallery.js`).
    static func fileStem(_ key: String) -> String {
        let ending = key.hasSuffix("$")
        let bare = ending ? String(key.dropLast()) : key
        let plain = bare.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        let stem = plain ? bare : bare.unicodeScalars.map { "_" + String($0.value, radix: 16) }.joined()
        return ending ? stem + "-end" : stem
    }
}

/// The objects each word occurs in. Most words of a large collection occur in one object only (names, numbers):
/// such a word keeps its object's number as its value, without an array of its own; a word of several objects
/// keeps `-1 - i`, where `lists[i]` holds them. A word of up to eight bytes (nearly every one: keys are cut at
/// `longestKey` letters) is kept as one number, so a table slot takes 12 bytes, not 20 for a `String` key.
struct Postings {
    private var short: [UInt64: Int32] = [:]
    private var long: [String: Int32] = [:]
    private var lists: [[Int32]] = []

    /// Each word once, in no order.
    func forEachWord(_ body: (String) -> Void) {
        for key in short.keys { body(Self.unpacked(key)) }
        for word in long.keys { body(word) }
    }

    mutating func append(_ number: Int32, to word: String) {
        if let key = Self.packed(word) {
            Self.append(number, to: key, in: &short, lists: &lists)
        } else {
            Self.append(number, to: word, in: &long, lists: &lists)
        }
    }

    private static func append<Key: Hashable>(
        _ number: Int32, to key: Key, in table: inout [Key: Int32], lists: inout [[Int32]]
    ) {
        guard let index = table.index(forKey: key) else {
            table[key] = number
            return
        }
        let value = table.values[index]
        if value >= 0 {
            lists.append([value, number])
            table.values[index] = -Int32(lists.count)
        } else {
            lists[Int(-1 - value)].append(number)
        }
    }

    func count(of word: String) -> Int {
        guard let value = value(of: word) else { return 0 }
        return value >= 0 ? 1 : lists[Int(-1 - value)].count
    }

    /// Appends the word's numbers to `objects`, without an array for a single one.
    func append(of word: String, to objects: inout [Int32]) {
        guard let value = value(of: word) else { return }
        if value >= 0 {
            objects.append(value)
        } else {
            objects += lists[Int(-1 - value)]
        }
    }

    private func value(of word: String) -> Int32? {
        if let key = Self.packed(word) { return short[key] }
        return long[word]
    }

    /// A word's bytes as one number, when it has eight or fewer. No word holds a zero byte, so two words never
    /// share a number.
    static func packed(_ word: String) -> UInt64? {
        guard word.utf8.count <= 8 else { return nil }
        var key: UInt64 = 0
        for byte in word.utf8 {
            guard byte != 0 else { return nil }
            key = key << 8 | UInt64(byte)
        }
        return key
    }

    static func unpacked(_ key: UInt64) -> String {
        var bytes: [UInt8] = []
        var rest = key
        while rest != 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
        return String(decoding: bytes.reversed(), as: UTF8.self)
    }
}
