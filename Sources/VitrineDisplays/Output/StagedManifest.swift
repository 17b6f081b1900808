import Foundation

/// The files an export has staged, each with what it was made from and its size, in the order they were staged.
/// Nothing reads them before the commit, so they are kept compact (each path's bytes one after another) rather
/// than as a table keyed by path strings, which was 138 MB at a million pages; the commit writes the manifest
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

    /// The manifest's table: each path's fingerprint and size (a path staged twice keeps the last).
    func table() -> [String: OutputManifest.Made] {
        var table: [String: OutputManifest.Made] = [:]
        table.reserveCapacity(made.count)
        forEach { path, file in table[String(decoding: path, as: UTF8.self)] = file }
        return table
    }

    /// Writes the manifest of what was staged into `folder`, sorted by path, as `OutputManifest.write` does (a path
    /// staged twice keeps the last), without a table of a million path strings.
    func write(in folder: URL) throws {
        try paths.withUnsafeBufferPointer { bytes in
            func path(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
            }
            // Byte order, as `[UInt8]`s compare: the same as the strings' order for the ASCII paths a catalog has.
            let order = (0..<made.count).sorted { first, second in
                let (left, right) = (path(first), path(second))
                var compared: Int32 = 0
                if let leftBytes = left.baseAddress, let rightBytes = right.baseAddress {
                    compared = memcmp(leftBytes, rightBytes, min(left.count, right.count))
                }
                if compared != 0 { return compared < 0 }
                return left.count != right.count ? left.count < right.count : first < second
            }
            try OutputManifest.write(in: folder) { line in
                for (position, index) in order.enumerated() {
                    // Of a path staged twice, the later one (which sorts after) is the file.
                    if position + 1 < order.count, path(order[position + 1]).elementsEqual(path(index)) { continue }
                    line(path(index), made[index])
                }
            }
        }
    }
}
