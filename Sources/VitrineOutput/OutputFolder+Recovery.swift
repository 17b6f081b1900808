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
    static func removeAbandonedStaging(of destination: URL) {
        let parent = destination.deletingLastPathComponent().path
        let prefix = "." + destination.lastPathComponent + stagingInfix
        for name in topLevelNames(of: parent) where name.hasPrefix(prefix) {
            removeIfAbandoned(parent + "/" + name, of: destination, carrying: true)
        }
        let trash = "." + destination.lastPathComponent + trashInfix
        for name in topLevelNames(of: parent) where name.hasPrefix(trash) {
            try? FileManager.default.removeItem(atPath: parent + "/" + name)
        }
        for name in topLevelNames(of: destination.path) where name.hasPrefix(stagingInfix) {
            removeIfAbandoned(destination.path + "/" + name, of: destination, carrying: false)
        }
    }

    /// Removes a staging folder unless a live run holds the lock inside it; from an old catalog left by an exchange
    /// (no lock file), the files its manifest does not list are first carried into `destination` where it has none,
    /// when `carrying` (not from inside the output folder, where an older Vitrine staged).
    private static func removeIfAbandoned(_ path: String, of destination: URL, carrying: Bool) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        let lockPath = path + "/" + stagingLockName
        let wasExchanged = lstat(lockPath, &status) != 0
        switch FileLock.take(lockPath) {
        case .busy:
            return
        case .held(let descriptor):
            if wasExchanged, carrying { carryUserFiles(from: path, into: destination) }
            removeCatalog(path, of: destination)
            close(descriptor)
        case .unavailable:
            removeCatalog(path, of: destination)
        }
    }

    /// Moves the files of an old catalog that its manifest does not list (the user's) into the output folder, where
    /// it has nothing at their paths; a file there already (one linked into the new catalog) is the same file.
    private static func carryUserFiles(from old: String, into destination: URL) {
        let listed = ManifestTable(ofCatalog: old, output: destination)
        for name in topLevelNames(of: old) where !isOwnFile(name) {
            var status = stat()
            guard lstat(old + "/" + name, &status) == 0 else { continue }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                if !listed.contains(name) { move(name, from: old, into: destination.path) }
                continue
            }
            var paths: [String] = []
            OutputManifest.walkFiles(in: old + "/" + name, relative: name) { (relative: UnsafeBufferPointer<UInt8>) in
                let key = PathHashTable<OutputManifest.Made>.key(relative)
                if listed[key: key] == nil, !listed.containsUnfingerprinted(key: key) {
                    paths.append(String(decoding: relative, as: UTF8.self))
                }
            }
            for path in paths { move(path, from: old, into: destination.path) }
        }
    }
}
