import Foundation
import VitrineCore

// What a killed run leaves beside the output folder, removed by the next export: its staging folder. A staging
// folder is alive while its run holds the lock inside it; the kernel lets that lock go however the run ends.
extension OutputFolder {
    /// Removes the staging folders of runs that are gone: beside the output folder (`.Output.vitrine-staging-…`),
    /// and inside it where an older Vitrine staged (`Output/.vitrine-staging-…`). Called with the folder's lock held.
    static func removeAbandonedStaging(of destination: URL) {
        let parent = destination.deletingLastPathComponent().path
        let prefix = "." + destination.lastPathComponent + stagingInfix
        for name in topLevelNames(of: parent) where name.hasPrefix(prefix) {
            removeIfAbandoned(parent + "/" + name)
        }
        for name in topLevelNames(of: destination.path) where name.hasPrefix(stagingInfix) {
            removeIfAbandoned(destination.path + "/" + name)
        }
    }

    /// Removes a staging folder unless a live run holds the lock inside it (a folder without one is no run's).
    private static func removeIfAbandoned(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        switch FileLock.take(path + "/" + stagingLockName) {
        case .busy:
            return
        case .held(let descriptor):
            try? FileManager.default.removeItem(atPath: path)
            close(descriptor)
        case .unavailable:
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
