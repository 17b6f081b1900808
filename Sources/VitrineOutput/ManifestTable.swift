import Foundation

/// What a catalog's files were made from, looked up by path, each path kept only as a 64-bit hash (see
/// `PathHashTable`): far less memory than a table keyed by path strings, or a `[Int: Made]` grown to a power of
/// two. A re-run holds two: the live catalog's and the spare's, which shares the entries the two list alike.
struct ManifestTable: Sendable {
    private var made = PathHashTable<OutputManifest.Made>()
    /// Files listed as `base` lists them, held there once (see `sharing(with:)`); `base` is another table's
    /// storage, not a copy of it.
    private var sameAsBase = PathHashTable<Void>()
    private var base = PathHashTable<OutputManifest.Made>()
    /// Files listed without a fingerprint (by an older Vitrine): only whether they are listed is asked.
    private var unfingerprinted: Set<UInt64> = []
    /// The top-level entries the listed files are in (`index.html`, `objects`).
    private(set) var topLevelEntries: Set<String> = []

    init() {}

    /// The manifest of the catalog folder `catalog` beside (or at) `output`; empty when it has none.
    init(ofCatalog catalog: String, output: URL) {
        var entries: [PathHashTable<OutputManifest.Made>.Entry] = []
        var lastTop: [UInt8] = []
        OutputManifest.scan(
            OutputManifest.path(ofCatalog: catalog, output: output), reserve: { entries.reserveCapacity($0) }
        ) { path, made in
            let key = PathHashTable<OutputManifest.Made>.key(path)
            if let made {
                entries.append(.init(key: key, value: made))
            } else {
                unfingerprinted.insert(key)
            }
            // Listed files come sorted, so one top-level entry's files follow each other: a string is made per entry.
            let top = UnsafeBufferPointer(rebasing: path[..<(path.firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex)])
            if !top.elementsEqual(lastTop) {
                lastTop = Array(top)
                topLevelEntries.insert(String(decoding: top, as: UTF8.self))
            }
        }
        made = PathHashTable(sorting: &entries)
    }

    /// This table, its entries that `other` lists alike held by `other`'s storage: the spare catalog's files are
    /// nearly all the live one's (hard links), so a night holds most of a million entries once, not twice.
    func sharing(with other: ManifestTable) -> ManifestTable {
        guard sameAsBase.count == 0, made.count > 0, other.made.count > 0 else { return self }
        var own: [PathHashTable<OutputManifest.Made>.Entry] = []
        var same: [PathHashTable<Void>.Entry] = []
        same.reserveCapacity(made.count)
        // Only a key's first entry may be shared, and lookups ask the shared ones first: a key listed twice (a
        // hand-edited manifest, or two paths sharing a hash) is answered by its first entry, as the table alone does.
        var previousKey: UInt64?
        made.forEach { entry in
            if entry.key != previousKey, other.made[key: entry.key] == entry.value {
                same.append(.init(key: entry.key, value: ()))
            } else {
                own.append(entry)
            }
            previousKey = entry.key
        }
        var shared = self
        shared.made = PathHashTable(sorting: &own)
        shared.sameAsBase = PathHashTable(sorting: &same)
        shared.base = other.made
        return shared
    }

    /// How many fingerprinted files are listed.
    var count: Int { made.count + sameAsBase.count }
    var isEmpty: Bool { count == 0 }

    /// What the file at `path` was made from; `nil` when it is not listed, or listed without a fingerprint.
    subscript(path: String) -> OutputManifest.Made? {
        var path = path
        return path.withUTF8 { self[key: PathHashTable<OutputManifest.Made>.key($0)] }
    }

    /// What the file whose path has this `PathHashTable` key was made from.
    subscript(key key: UInt64) -> OutputManifest.Made? {
        sameAsBase[key: key] == nil ? made[key: key] : base[key: key]
    }

    /// Whether the file whose path has this `PathHashTable` key is listed without a fingerprint.
    func containsUnfingerprinted(key: UInt64) -> Bool {
        unfingerprinted.contains(key)
    }

    /// Whether a file is listed, with a fingerprint or without.
    func contains(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            let key = PathHashTable<OutputManifest.Made>.key(bytes)
            return self[key: key] != nil || unfingerprinted.contains(key)
        }
    }
}

/// A value for each of a set of paths, each path kept only as a 64-bit hash, in one array sorted by it, with a
/// directory of where each run of leading hash bits starts (about two entries a run): a lookup reads one
/// directory slot and a cache line or two. `PathHashTable<Void>` is a set of paths at 8 bytes each.
///
/// The table is made and asked in one process, so Swift's seeded `Hasher` serves. Two paths that share a hash are
/// taken one for the other: for a manifest, they would also have to share a fingerprint and a size to matter.
struct PathHashTable<Value: Sendable>: Sendable {
    struct Entry {
        var key: UInt64
        var value: Value
    }

    /// Sorted by `key`.
    private var entries: [Entry] = []
    /// `entries[starts[b]..<starts[b + 1]]` are the entries whose hash's top bits are `b`.
    private var starts: [Int32] = [0, 0, 0]
    private var shift: UInt64 = 63

    init() {}

    /// Sorts `unsorted` where it is (a copy would hold every entry twice) and takes it.
    init(sorting unsorted: inout [Entry]) {
        unsorted.sort { $0.key < $1.key }
        swap(&entries, &unsorted)
        var bits: UInt64 = 1
        while 1 << bits < entries.count / 2 { bits += 1 }
        shift = 64 - bits
        starts = Array(repeating: 0, count: (1 << Int(bits)) + 1)
        var bucket = 0
        for (index, entry) in entries.enumerated() {
            let top = Int(entry.key >> shift)
            while bucket < top {
                bucket += 1
                starts[bucket] = Int32(index)
            }
        }
        for rest in (bucket + 1)..<starts.count { starts[rest] = Int32(entries.count) }
    }

    var count: Int { entries.count }

    /// Each entry, in the order of their keys.
    func forEach(_ body: (Entry) -> Void) {
        entries.forEach(body)
    }

    subscript(path: String) -> Value? {
        var path = path
        return path.withUTF8 { self[key: Self.key($0)] }
    }

    subscript(key key: UInt64) -> Value? {
        let bucket = Int(key >> shift)
        guard bucket + 1 < starts.count else { return nil }
        for index in Int(starts[bucket])..<Int(starts[bucket + 1]) where entries[index].key == key {
            return entries[index].value
        }
        return nil
    }

    static func key(_ path: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(path))
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}

extension PathHashTable where Value == Void {
    /// The paths an export staged.
    init(staged: StagedManifest) {
        var entries: [Entry] = []
        entries.reserveCapacity(staged.count)
        staged.forEach { path, _ in entries.append(Entry(key: Self.key(path), value: ())) }
        self.init(sorting: &entries)
    }
}
