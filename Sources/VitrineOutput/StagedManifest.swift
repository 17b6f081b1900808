import Foundation

/// The files an export has staged, each with what it was made from and its size, in the order they were staged.
/// Nothing reads them before the commit, so they are kept compact (each path's bytes one after another) rather
/// than as a table keyed by path strings, which takes several times the memory; the commit writes the manifest
/// straight from them, in path order, and asks a set of their path hashes (`PathHashTable`) which were staged.
struct StagedManifest {
    private var paths: [UInt8] = []
    /// Where each file's path ends in `paths`.
    private var ends: [Int] = []
    private var made: [OutputManifest.Made] = []

    /// Makes room for about `count` files at once (grown by doubling, the arrays would be held twice over).
    mutating func reserve(_ count: Int) {
        paths.reserveCapacity(count * 28)
        ends.reserveCapacity(count)
        made.reserveCapacity(count)
    }

    mutating func append(_ path: String, _ file: OutputManifest.Made) {
        paths.append(contentsOf: path.utf8)
        ends.append(paths.count)
        made.append(file)
    }

    /// `append("\(folder)/\(name)", file)` (`append(name, file)` for the catalog's own folder, `""`), without
    /// making the path's string.
    mutating func append(folder: String, name: String, _ file: OutputManifest.Made) {
        if !folder.isEmpty {
            paths.append(contentsOf: folder.utf8)
            paths.append(UInt8(ascii: "/"))
        }
        paths.append(contentsOf: name.utf8)
        ends.append(paths.count)
        made.append(file)
    }

    /// How many files were staged (a path staged twice counts twice).
    var count: Int { made.count }

    /// Each staged path's bytes, with its fingerprint and size, in the order staged.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>, OutputManifest.Made) -> Void) {
        paths.withUnsafeBufferPointer { bytes in
            var start = 0
            for (end, file) in zip(ends, made) {
                body(UnsafeBufferPointer(rebasing: bytes[start..<end]), file)
                start = end
            }
        }
    }

    /// Writes the manifest of what was staged into `folder`, sorted by path, as `OutputManifest.write` does (a path
    /// staged twice keeps the last), without a table of a million path strings.
    func write(in folder: URL) throws {
        try paths.withUnsafeBufferPointer { bytes in
            func path(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
            }
            let order = pathOrder(bytes)
            try OutputManifest.write(in: folder) { line in
                for index in order { line(path(index), made[index]) }
            }
        }
    }

    /// The staged files' numbers in byte order of their paths (as `[UInt8]`s compare: the strings' order for the
    /// ASCII paths a catalog has); of a path staged twice, the later one, which is the file. Each path's first 24
    /// bytes are compared as three big-endian words, the rest (rarely reached) byte by byte: nearly every path
    /// begins `objects/`, which `memcmp` from the first byte would go over in every comparison, and the sort runs
    /// alone on a core at the commit.
    private func pathOrder(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        struct Key {
            var words: (UInt64, UInt64, UInt64)
            var start: Int
            var end: Int
            var index: Int
        }
        var keys: [Key] = []
        keys.reserveCapacity(made.count)
        for index in 0..<made.count {
            let start = index == 0 ? 0 : ends[index - 1]
            let end = ends[index]
            // A path's bytes from `offset`, eight as one number whose order is theirs (no path holds a zero byte, so
            // a shorter path's zeros sort it first).
            func word(_ offset: Int) -> UInt64 {
                var word: UInt64 = 0
                for position in (start + offset)..<(start + offset + 8) {
                    word = word << 8 | (position < end ? UInt64(bytes[position]) : 0)
                }
                return word
            }
            keys.append(Key(words: (word(0), word(8), word(16)), start: start, end: end, index: index))
        }
        /// The order of two paths' bytes after their first 24, which are equal: -1, 0 or 1.
        func rest(_ first: Key, _ second: Key) -> Int {
            let (left, right) = (first.end - first.start, second.end - second.start)
            if left > 24, right > 24, let base = bytes.baseAddress {
                let compared = memcmp(base + first.start + 24, base + second.start + 24, min(left, right) - 24)
                if compared != 0 { return compared < 0 ? -1 : 1 }
            }
            return left == right ? 0 : left < right ? -1 : 1
        }
        keys.sort { first, second in
            if first.words != second.words { return first.words < second.words }
            let compared = rest(first, second)
            return compared != 0 ? compared < 0 : first.index < second.index
        }
        var order: [Int] = []
        order.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() {
            let next = position + 1 < keys.count ? keys[position + 1] : nil
            if let next, next.words == key.words, rest(key, next) == 0 { continue }
            order.append(key.index)
        }
        return order
    }
}
