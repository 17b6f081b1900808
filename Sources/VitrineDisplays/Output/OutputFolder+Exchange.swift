import CFolderExchange
import Foundation

// The whole-folder commit: the staged catalog becomes the output folder in one atomic exchange of the two folders
// (`renameat2(RENAME_EXCHANGE)`), so that no reader ever sees a catalog mixed from two runs. The entry-by-entry
// swap in `commit` is what is left for a folder that cannot be exchanged whole (see `exchangeRefusal`).
extension OutputFolder {
    /// What a staging folder moved beside the output folder for its exchange is called (the process id follows):
    /// `.Output.vitrine-staging-`. It holds the new catalog before the exchange and the old one after.
    static func besidePrefix(of destination: URL) -> String {
        "." + destination.lastPathComponent + stagingPrefix
    }

    /// Why the output folder cannot be exchanged whole, or `nil` when it can. It can when it is a real folder (not
    /// a link), its parent is on the same disk and writable, no process of the user's works in it, and it holds
    /// nothing of the user's but plain files at its top level (their README), which go along with the new catalog.
    /// `written` is the top-level entries the last export wrote.
    func exchangeRefusal(staged entries: Set<String>, written: Set<String>) -> String? {
        let parent = destination.deletingLastPathComponent()
        var folder = stat()
        var above = stat()
        guard destination.path != "/", lstat(destination.path, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR
        else { return "the output folder is a link" }
        guard stat(parent.path, &above) == 0, above.st_dev == folder.st_dev, access(parent.path, W_OK) == 0 else {
            return "its parent folder is on another disk or cannot be written"
        }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        let resolved = destination.resolvingSymlinksInPath().path
        if here == resolved || here.hasPrefix(resolved + "/") { return "it is the current folder" }
        if let (pid, command) = Self.processWorking(in: resolved) {
            // A shell or `python3 -m http.server` started there would be left in the old, deleted folder.
            return "process \(pid) (\(command)) works in it"
        }
        for name in Self.topLevelNames(of: destination.path) where !Self.isOwnFile(name) && !entries.contains(name) {
            if written.contains(name) {
                // An earlier export's entry that this one does not write: only Vitrine's files may be in it.
                if !previous.foreignFiles(at: name, in: destination).isEmpty { return "\(name) holds files of yours" }
            } else if !Self.isPlainFile(destination.appendingPathComponent(name).path) {
                var status = stat()
                let isFolder =
                    lstat(destination.appendingPathComponent(name).path, &status) == 0
                    && status.st_mode & S_IFMT == S_IFDIR
                return "\(name) is \(isFolder ? "a folder" : "a special file") of yours"
            }
        }
        return nil
    }

    /// The commit in one step: the user's top-level files are linked into the staged catalog, which has the new
    /// manifest (`manifestWritten`: the caller wrote it) and gets a lock file, moves beside the output folder and is
    /// exchanged with it. Returns `nil` when it was; otherwise why not, with the staging folder back in place: the
    /// caller swaps entries then (what was added to the staging folder is no entry of it).
    /// - parameter keepSpare: keep the old catalog beside the output folder as the next export's staging folder
    ///   (see `OutputFolder+Spare.swift`) instead of removing it.
    func exchangeWhole(
        staged entries: Set<String>, written: Set<String>, manifestWritten: Bool, keepSpare: Bool
    ) -> String? {
        var linked: [String: ino_t] = [:]
        for name in Self.topLevelNames(of: destination.path)
        where !Self.isOwnFile(name) && !entries.contains(name) && !written.contains(name) {
            let source = destination.appendingPathComponent(name).path
            var status = stat()
            guard lstat(source, &status) == 0,
                linkat(AT_FDCWD, source, AT_FDCWD, staging.appendingPathComponent(name).path, 0) == 0
            else { return "your \(name) could not be linked into the new folder (\(Self.lastError))" }
            linked[name] = status.st_ino
        }
        guard manifestWritten else { return "its manifest could not be written" }
        let lockFile = open(staging.appendingPathComponent(Self.lockName).path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        if lockFile >= 0 { close(lockFile) }
        var folder = stat()
        if stat(destination.path, &folder) == 0 { chmod(staging.path, folder.st_mode & 0o7777) }

        let beside = destination.deletingLastPathComponent().appendingPathComponent(
            Self.besidePrefix(of: destination) + "\(ProcessInfo.processInfo.processIdentifier)")
        guard rename(staging.path, beside.path) == 0 else {
            return "the new catalog could not be moved beside it (\(Self.lastError))"
        }
        guard vitrine_exchange_paths(beside.path, destination.path) == 0 else {
            let cannot = [EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP].contains(errno)
            let reason =
                cannot
                ? "the file system cannot exchange two folders"
                : "the folders could not be exchanged (\(Self.lastError))"
            rename(beside.path, staging.path)
            return reason
        }
        commitStep?()
        // `beside` now holds the old catalog. A file of the user's that was replaced or added while the commit ran
        // is carried over into the new folder before the old one goes, and so is any other run's staging folder.
        for name in Self.topLevelNames(of: beside.path)
        where name != Self.lockName && name != OutputManifest.fileName && !written.contains(name)
            && !entries.contains(name)
        {
            let old = beside.appendingPathComponent(name).path
            let new = destination.appendingPathComponent(name).path
            var status = stat()
            guard lstat(old, &status) == 0, linked[name] != status.st_ino else { continue }
            rename(old, new)
        }
        if !keepSpare || !Self.keepAsSpare(beside, of: destination) {
            try? FileManager.default.removeItem(at: beside)
        }
        return nil
    }

    /// Staging folders beside the output folder left by killed runs: before their exchange they hold a new
    /// catalog that never arrived, after it the old one. Either way they go.
    static func removeAbandonedBeside(_ folder: URL) {
        let parent = folder.deletingLastPathComponent()
        let prefix = besidePrefix(of: folder)
        for name in topLevelNames(of: parent.path) where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != ProcessInfo.processInfo.processIdentifier
            else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }  // That process is still running.
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// A process of this user whose current folder is `folder` or inside it (Linux `/proc`), with its command name.
    static func processWorking(in folder: String) -> (Int32, String)? {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), pid != ProcessInfo.processInfo.processIdentifier,
                let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/cwd"),
                cwd == folder || cwd.hasPrefix(folder + "/")
            else { continue }
            let command = (try? String(contentsOfFile: "/proc/\(name)/comm", encoding: .utf8)) ?? "?"
            return (pid, command.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return nil
    }

    /// The last system call's error, in words (`Operation not permitted`).
    static var lastError: String { String(cString: strerror(errno)) }

    /// Vitrine's own bookkeeping at the top of the output folder: the lock, the manifest, staging folders.
    static func isOwnFile(_ name: String) -> Bool {
        name == lockName || name == OutputManifest.fileName || name.hasPrefix(stagingPrefix)
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
