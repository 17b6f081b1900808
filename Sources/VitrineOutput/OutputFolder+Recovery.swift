import Foundation
import VitrineCore
import VitrineFiles

// What a killed run leaves beside the output folder, put right by the next export. A staging folder is alive while
// its run holds the lock inside it; the kernel lets that lock go however the run ends. One that still has its lock
// file was never exchanged: it holds only the new catalog, which goes. One without it was exchanged (or about to be):
// it is the old catalog, and what the user kept in it is carried into the output folder before it goes.
extension OutputFolder {
    /// Puts right the staging folders of runs that are gone: beside the output folder (`.Output.vitrine-staging-…`),
    /// and inside it where an older Vitrine staged (`Output/.vitrine-staging-…`). Called with the folder's lock held.
    /// Returns what the user should know: an old catalog kept because files of theirs in it could not be carried.
    static func removeAbandonedStaging(of destination: URL) -> [String] {
        let parent = destination.deletingLastPathComponent().path
        let prefix = "." + destination.lastPathComponent + stagingInfix
        var notes: [String] = []
        for name in topLevelNames(of: parent) where name.hasPrefix(prefix) {
            if let note = removeIfAbandoned(parent + "/" + name, of: destination, carrying: true) { notes.append(note) }
        }
        let trash = "." + destination.lastPathComponent + trashInfix
        for name in topLevelNames(of: parent) where name.hasPrefix(trash) {
            try? FileManager.default.removeItem(atPath: parent + "/" + name)
        }
        for name in topLevelNames(of: destination.path) where name.hasPrefix(stagingInfix) {
            _ = removeIfAbandoned(destination.path + "/" + name, of: destination, carrying: false)
        }
        return notes
    }

    /// Removes a staging folder unless a live run holds the lock inside it. An old catalog left by an exchange has no
    /// lock file (and no run can hold one in it: the folder's lock is held): the files its manifest does not list
    /// are first carried into `destination` where it has none, when `carrying` (not from inside the output folder,
    /// where an older Vitrine staged). One that still holds a file of the user's that could not be carried (a
    /// mount point, a folder of another account's) is kept, and never given a lock file: the returned note says so.
    private static func removeIfAbandoned(_ path: String, of destination: URL, carrying: Bool) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return nil
        }
        let lockPath = path + "/" + stagingLockName
        if lstat(lockPath, &status) != 0, carrying {
            let failed = carryUserFiles(from: path, into: destination)
            guard failed.isEmpty else { return uncarried(failed, in: path) }
            removeCatalog(path, of: destination)
            return nil
        }
        switch FileLock.take(lockPath) {
        case .busy:
            return nil
        case .held(let descriptor):
            removeCatalog(path, of: destination)
            close(descriptor)
        case .unavailable:
            removeCatalog(path, of: destination)
        }
        return nil
    }

    /// What to tell of files of the user's that stay in the old catalog at `old`.
    static func uncarried(_ failed: [String], in old: String) -> String {
        "\(failed.count) of your files could not be carried into the new catalog and stay in \(old) (Vitrine "
            + "removes it once nothing of yours is left in it): " + failed.prefix(3).joined(separator: ", ")
            + (failed.count > 3 ? ", …" : "")
    }

    /// Moves the files of an old catalog that its manifest does not list (the user's) into the output folder, where
    /// it has nothing at their paths; a file there already (one linked into the new catalog) is the same file.
    /// Returns those that are still only in the old catalog.
    private static func carryUserFiles(from old: String, into destination: URL) -> [String] {
        let listed = ManifestTable(ofCatalog: old, output: destination)
        var failed: [String] = []
        func carry(_ relative: String) {
            guard !move(relative, from: old, into: destination.path) else { return }
            var mine = stat()
            var there = stat()
            guard lstat(old + "/" + relative, &mine) == 0 else { return }
            let same =
                lstat(destination.path + "/" + relative, &there) == 0 && mine.st_ino == there.st_ino
                && mine.st_dev == there.st_dev
            if !same { failed.append(relative) }
        }
        for name in topLevelNames(of: old) where !isOwnFile(name) {
            var status = stat()
            guard lstat(old + "/" + name, &status) == 0 else { continue }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                if !listed.contains(name) { carry(name) }
                continue
            }
            var paths: [String] = []
            OutputManifest.walkFiles(in: old + "/" + name, relative: name) {
                (relative: UnsafeBufferPointer<UInt8>, _: Bool) in
                let key = PathHashTable<OutputManifest.Made>.key(relative)
                if listed[key: key] == nil, !listed.containsUnfingerprinted(key: key) {
                    paths.append(String(decoding: relative, as: UTF8.self))
                }
            }
            for path in paths { carry(path) }
        }
        return failed
    }
}
