import Foundation

// Walking a catalog's files, for the commit (what to carry, what to remove) and for the spare.
extension OutputManifest {
    /// Every file (anything but a folder; links are not followed) under `path`, by its path relative to the
    /// output folder. `readdir` tells a folder from a file without a `stat` per entry: a gallery's `objects/`
    /// holds 100,000 of them.
    static func walkFiles(in path: String, relative: String, _ visit: (String) -> Void) {
        walkFiles(in: path, relative: relative) { (bytes: UnsafeBufferPointer<UInt8>) in
            visit(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// `walkFiles`, each file's relative path handed over as bytes, good during the call only: a string per entry
    /// (its name, its full path and its relative path) would be most of the cost of walking a gallery's folder.
    static func walkFiles(
        in path: String, relative: String, _ visit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var relative = Array(relative.utf8)
        walkFiles(in: path, relative: &relative) { path, _ in visit(path) }
    }

    /// `walkFiles`, telling each time whether the entry is a symbolic link, for the files of the user's to carry
    /// out of an old catalog: a folder that cannot be read (another account's) is handed over whole, as one entry.
    static func walkFiles(
        in path: String, relative: String, _ visit: (UnsafeBufferPointer<UInt8>, _ isLink: Bool) -> Void
    ) {
        var relative = Array(relative.utf8)
        walkFiles(in: path, relative: &relative, unreadableWhole: true, visit)
    }

    private static func walkFiles(
        in path: String, relative: inout [UInt8], unreadableWhole: Bool = false,
        _ visit: (UnsafeBufferPointer<UInt8>, Bool) -> Void
    ) {
        guard let directory = opendir(path) else {
            if unreadableWhole, errno == EACCES { relative.withUnsafeBufferPointer { visit($0, false) } }
            return
        }
        defer { closedir(directory) }
        let prefix = relative.count
        defer { relative.removeSubrange(prefix...) }
        while let entry = readdir(directory) {
            let type = Int32(entry.pointee.d_type)
            relative.removeSubrange(prefix...)
            relative.append(UInt8(ascii: "/"))
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { raw -> Bool in
                let name = raw.prefix { $0 != 0 }
                relative.append(contentsOf: name)
                // `.` and `..`.
                return (1...2).contains(name.count) && name.allSatisfy { $0 == UInt8(ascii: ".") }
            }
            if isDot { continue }
            // A name needs a string only where the folder is walked into, or asked what it is.
            var isFolder = type == DT_DIR
            var isLink = type == DT_LNK
            if type == DT_UNKNOWN {
                var status = stat()
                let found = lstat(path + "/" + name(relative, after: prefix), &status) == 0
                isFolder = found && status.st_mode & S_IFMT == S_IFDIR
                isLink = found && status.st_mode & S_IFMT == S_IFLNK
            }
            if isFolder {
                walkFiles(
                    in: path + "/" + name(relative, after: prefix), relative: &relative,
                    unreadableWhole: unreadableWhole, visit)
            } else {
                relative.withUnsafeBufferPointer { visit($0, isLink) }
            }
        }
    }

    /// The entry's name: what follows `prefix` and its slash in the relative path.
    private static func name(_ relative: [UInt8], after prefix: Int) -> String {
        String(decoding: relative[(prefix + 1)...], as: UTF8.self)
    }
}
