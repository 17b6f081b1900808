/// The files an export has staged, each with what it was made from and its size, in the order they were staged.
/// Nothing reads them before the commit, so they are kept compact (each path's bytes one after another) rather
/// than as a table keyed by path strings, which was 138 MB at a million pages; the commit makes the manifest's
/// table from them once the catalogs' own memory is let go.
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

    /// The manifest's table: each path's fingerprint and size (a path staged twice keeps the last).
    func table() -> [String: OutputManifest.Made] {
        var table: [String: OutputManifest.Made] = [:]
        table.reserveCapacity(made.count)
        var start = 0
        for (end, file) in zip(ends, made) {
            table[String(decoding: paths[start..<end], as: UTF8.self)] = file
            start = end
        }
        return table
    }
}
