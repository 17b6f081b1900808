import CFolderExchange
import Foundation
import VitrineCore
import VitrineFiles

// The exchange: the staged catalog and the output folder swap places in one step (`renameat2(RENAME_EXCHANGE)`), so
// that no reader ever sees a catalog mixed from two runs. A folder that cannot be exchanged is refused before the
// harvest, naming the cause and the fix.
extension OutputFolder {
    /// Refuses an output folder that cannot be exchanged whole: a link, the current folder, a folder whose parent
    /// cannot be written or is on another disk.
    static func checkExchangeable(_ destination: URL) throws(ExportError) {
        try refuseChoice(destination)
        let path = destination.path
        let parent = destination.deletingLastPathComponent().path
        var folder = stat()
        var above = stat()
        guard stat(parent, &above) == 0, access(parent, W_OK) == 0 else {
            throw ExportError(
                .output(
                    "\(parent) cannot be written: Vitrine stages the new catalog beside its output folder (\(path)) and "
                        + "swaps the two; make \(parent) writable, or choose another --output"))
        }
        if stat(path, &folder) == 0, folder.st_dev != above.st_dev {
            throw ExportError(
                .output(
                    "\(path) is on another disk than \(parent) (a mount point): Vitrine stages the new catalog beside "
                        + "its output folder and swaps the two; choose an --output inside it"))
        }
        // A folder mounted inside moves with the old catalog, and nothing in it can be carried into the new one.
        if let mounted = mountPoints(inside: destination).first {
            throw ExportError(
                .output(
                    "\(mounted) is a mount point inside the output folder \(path): Vitrine swaps the whole folder, "
                        + "and what is mounted there cannot move into the new catalog; mount it outside, and link to it"
                ))
        }
    }

    /// The mount points inside `folder`, as the mount table says (Linux's `/proc/self/mountinfo`; none where it
    /// cannot be read).
    static func mountPoints(
        inside folder: URL, table: String? = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
    ) -> [String] {
        guard let table else { return [] }
        let inside = folder.resolvingSymlinksInPath().path + "/"
        return table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5)
            guard fields.count > 4 else { return nil }
            // Spaces and other odd bytes are written in octal (`\040`).
            let point = fields[4].replacing(/\\([0-7]{3})/) { match in
                UInt8(match.output.1, radix: 8).map { String(UnicodeScalar($0)) } ?? String(match.output.0)
            }
            return point.hasPrefix(inside) ? String(point) : nil
        }
    }

    /// Refuses an `--output` that names a folder Vitrine must not replace whole (a link, `/`, the current folder,
    /// a home, a shared folder): a mistake in the command, told before the harvest.
    /// The top-level folders of the Filesystem Hierarchy Standard (and of Linux distributions beside it).
    static let systemFolders: Set<String> = [
        "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt", "proc", "root",
        "run", "sbin", "snap", "srv", "sys", "tmp", "usr", "var", "applications", "library", "system", "users",
        "volumes", "private",
    ]

    package static func refuseChoice(_ destination: URL) throws(ExportError) {
        let path = destination.path
        var folder = stat()
        if lstat(path, &folder) == 0, folder.st_mode & S_IFMT == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "elsewhere"
            throw ExportError(
                .configuration(
                    "\(path) is a symbolic link (to \(target)): Vitrine replaces its output folder in one step, which it "
                        + "cannot do through a link; give --output the folder itself"))
        }
        if path == "/" {
            throw ExportError(.configuration("/ cannot be an output folder: choose a folder of its own with --output"))
        }
        // The swap would move the system's own folders (`/usr`, `/etc`) aside for a moment, and what is in them:
        // named as they are or through a link (`~/root-link/usr`), in any case (macOS's disks ignore it).
        let resolved = destination.resolvingSymlinksInPath().path
        let isSystemFolder = [destination.path, resolved].contains { path in
            var parts = URL(fileURLWithPath: path).pathComponents.map { $0.lowercased() }
            if parts.count == 3, parts[1] == "private" { parts.remove(at: 1) }
            return parts.count == 2 && Self.systemFolders.contains(parts[1])
        }
        if isSystemFolder {
            throw ExportError(
                .configuration(
                    "\(path) is a folder of the operating system: Vitrine replaces its output folder in one step, "
                        + "moving everything in it; give --output a folder of its own (a new one, such as "
                        + "\(path)/gallery)"))
        }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        if here == resolved {
            throw ExportError(
                .configuration(
                    "\(path) is the current folder: Vitrine replaces its output folder in one step, and this shell "
                        + "would be left in the old one; run from another folder"))
        }
        // The swap moves everything in the folder: one that holds the current folder, a home or a shared folder
        // (sticky, as /tmp is) holds what other programs are using.
        // A home is the account's and `$HOME`, which may differ (`sudo`, a service's environment).
        let homes = Set(
            [NSHomeDirectory(), ProcessInfo.processInfo.environment["HOME"]].compactMap { $0 }.filter { !$0.isEmpty }
                .map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })
        let isHome = homes.contains(resolved)
        let shared = lstat(path, &folder) == 0 && folder.st_mode & S_IFMT == S_IFDIR && folder.st_mode & S_ISVTX != 0
        if here.hasPrefix(resolved.hasSuffix("/") ? resolved : resolved + "/") || isHome || shared {
            let what =
                isHome
                ? "your home folder"
                : shared ? "a shared folder (sticky, as /tmp is)" : "a folder that holds the current one"
            throw ExportError(
                .configuration(
                    "\(path) is \(what): Vitrine replaces its output folder in one step, moving everything in it; give "
                        + "--output a folder of its own (a new one, such as \(path)/gallery)"))
        }
    }

    /// The exchange: the user's top-level files are linked into the staged catalog, which then swaps places with the
    /// output folder. The old catalog is walked once: what the user keeps there (top-level folders, files in
    /// Vitrine's folders, whatever was saved while the export ran) is carried into the new one, unless it stands
    /// where the new catalog has a file of its own: then the exchange is undone and the export fails, naming it
    /// (with `--force`, such files are replaced). The old catalog is then kept as the spare or removed.
    /// - parameter carried: entries linked whole from the old catalog (formats not asked for): nothing to carry.
    func exchange(staged entries: Set<String>, carried: Set<String>, keepSpare: Bool) throws(ExportError) {
        let written = previous.topLevelEntries
        var linked: [String: ino_t] = [:]
        for name in Self.topLevelNames(of: destination.path)
        where !Self.isOwnFile(name) && !entries.contains(name) && !written.contains(name) {
            let source = destination.appendingPathComponent(name).path
            var status = stat()
            guard lstat(source, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if linkat(AT_FDCWD, source, AT_FDCWD, stagingPath + "/" + name, 0) == 0 { linked[name] = status.st_ino }
        }
        var folder = stat()
        if stat(destination.path, &folder) == 0 { chmod(stagingPath, folder.st_mode & 0o7777) }
        // The staging folder's lock file is not published; the folder lock beside it is still held.
        unlink(stagingPath + "/" + Self.stagingLockName)
        beforeExchange?()
        CrashPoint.outputStaged.reach()
        guard vitrine_exchange_paths(stagingPath, destination.path) == 0 else {
            let cannot = [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP, EXDEV].contains(errno)
            let reason = Self.lastError
            discard()
            throw ExportError(
                .output(
                    cannot
                        ? "the file system of \(destination.path) cannot swap two folders in one step (\(reason)): "
                            + "choose an --output on one that can (a local disk, not a network share, nor a folder "
                            + "baked into a container's image)"
                        : "cannot swap the new catalog into \(destination.path): \(reason)"))
        }
        commitStep?()
        CrashPoint.outputExchanged.reach()
        // `stagingPath` holds the old catalog now.
        let old = stagingPath
        let (moves, inTheWay) = userFiles(
            in: old, linked: linked, written: written.union(entries), carried: carried)
        if !inTheWay.isEmpty, !force {
            vitrine_exchange_paths(old, destination.path)
            discard()
            let named = inTheWay.prefix(5).map { "\(destination.path)/\($0)" }.joined(separator: ", ")
            let more = inTheWay.count > 5 ? " and \(inTheWay.count - 5) more" : ""
            let them = inTheWay.count == 1 ? "it" : "them"
            throw ExportError(
                .output(
                    "\(named)\(more) would be replaced, and Vitrine did not write \(them); "
                        + "choose another --output, move \(them) away, or pass --force"))
        }
        var failed: [String] = []
        for path in moves where !carryOver(path, from: old) { failed.append(path) }
        guard failed.isEmpty else {
            note(Self.uncarried(failed, in: old))
            return
        }
        if keepSpare, Self.keepAsSpare(URL(fileURLWithPath: old), of: destination) { return }
        if let left = Self.removeCatalog(old, of: destination) {
            note("the old catalog could not be removed: it is still at \(left)")
        }
    }

    /// What the user keeps in the old catalog at `old`: top-level entries that are not Vitrine's (but the files
    /// already linked into the new one), and files in Vitrine's entries its manifest does not list. Returns the
    /// relative paths to carry into the new catalog, and those that stand where the new one has a file.
    private func userFiles(
        in old: String, linked: [String: ino_t], written: Set<String>, carried: Set<String>
    ) -> (moves: [String], inTheWay: [String]) {
        var moves: [String] = []
        var inTheWay: [String] = []
        for name in Self.topLevelNames(of: old) where !Self.isOwnFile(name) && !carried.contains(name) {
            let path = old + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            guard written.contains(name) else {
                if linked[name] != status.st_ino { moves.append(name) }
                continue
            }
            let isFolder = status.st_mode & S_IFMT == S_IFDIR
            func check(_ relative: String) {
                var there = stat()
                // In the way too: a file of the new catalog where the user's path has a folder (`page.html/notes`).
                if lstat(destination.path + "/" + relative, &there) == 0 || errno == ENOTDIR {
                    inTheWay.append(relative)
                } else {
                    moves.append(relative)
                }
            }
            guard isFolder else {
                if !previous.contains(name) || status.st_mode & S_IFMT == S_IFLNK { check(name) }
                continue
            }
            // A link where Vitrine's file was is the user's too: it is never replaced unasked.
            OutputManifest.walkFiles(in: path, relative: name) { (relative: UnsafeBufferPointer<UInt8>, isLink: Bool) in
                let key = PathHashTable<OutputManifest.Made>.key(relative)
                if isLink || (previous[key: key] == nil && !previous.containsUnfingerprinted(key: key)) {
                    check(String(decoding: relative, as: UTF8.self))
                }
            }
        }
        return (moves, inTheWay.sorted())
    }

    /// Moves a file (or a top-level entry) of the user's from the old catalog into the new one, making its folders
    /// (real folders of the new catalog, never through a link). Returns whether it did.
    private func carryOver(_ relative: String, from old: String) -> Bool {
        Self.move(relative, from: old, into: destination.path)
    }

    /// Moves `relative` from the folder `old` into the folder `into` when nothing is there, making its folders
    /// one component at a time (real folders, never through a link). Returns whether it did.
    @discardableResult
    static func move(_ relative: String, from old: String, into destination: String) -> Bool {
        var path = destination
        var status = stat()
        // The folders made for it, removed again when it does not move: a file that stays behind leaves none.
        var made: [String] = []
        defer { for folder in made.reversed() { rmdir(folder) } }
        for component in relative.split(separator: "/").dropLast() {
            path += "/" + component
            if lstat(path, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else { return false }
                continue
            }
            guard mkdir(path, 0o755) == 0 else { return false }
            made.append(path)
        }
        guard lstat(destination + "/" + relative, &status) != 0 else { return false }
        guard rename(old + "/" + relative, destination + "/" + relative) == 0 else { return false }
        made.removeAll()
        return true
    }

    /// The last system call's error, in words (`Operation not permitted`).
    static var lastError: String { String(cString: strerror(errno)) }

    /// Vitrine's own bookkeeping at the top of a catalog: a staging folder's lock, and the manifest, lock and
    /// staging folders older Vitrines kept there.
    static func isOwnFile(_ name: String) -> Bool {
        name == lockName || name == OutputManifest.legacyFileName || name == OutputManifest.legacyFileName + ".tmp"
            || name == stagingLockName || name.hasPrefix(stagingInfix)
    }

    /// Whether `path` is a file or a link (not a folder), without following a link.
    static func isPlainFile(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFREG || status.st_mode & S_IFMT == S_IFLNK
    }

    /// The names in a folder, `.` and `..` left out; none when it cannot be read.
    static func topLevelNames(of path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
