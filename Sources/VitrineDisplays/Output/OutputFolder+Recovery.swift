import Foundation

// What a killed run leaves in the output folder, put right by the next export: its staging folder goes, and a
// commit it was part way through is undone. Apart from `OutputFolder.swift` because it never runs with the
// export's own files, only with what a dead process left.
extension OutputFolder {
    /// What the old version of a swapped entry is called in the staging folder.
    static let replacedPrefix = ".replaced-"
    /// The entries a commit swaps, written in the staging folder before the first swap and removed after the last.
    static let journalName = ".swap-journal"

    /// Undoes the swap of a run killed while it committed, from what it left in its staging folder: each entry
    /// already swapped goes back to its old version (or away, if it is new), and the old manifest comes back.
    /// The catalog is then the last complete export's, whole.
    static func undoAbandonedSwap(in folder: URL, staging abandoned: URL, journal: String) {
        let manager = FileManager.default
        for entry in journal.split(separator: "\n").map(String.init)
        where OutputManifest.isSafe(entry) && !entry.contains("/") {
            let staged = abandoned.appendingPathComponent(entry).path
            let old = abandoned.appendingPathComponent(replacedPrefix + entry).path
            let target = folder.appendingPathComponent(entry).path
            var status = stat()
            let stagedLeft = lstat(staged, &status) == 0
            let oldKept = lstat(old, &status) == 0
            // Swapped in: the staged entry is gone and the target is the new version.
            if !stagedLeft, lstat(target, &status) == 0 { try? manager.removeItem(atPath: target) }
            if oldKept, lstat(target, &status) != 0 { try? manager.moveItem(atPath: old, toPath: target) }
        }
        let manifest = abandoned.appendingPathComponent(OutputManifest.fileName).path
        rename(manifest, folder.appendingPathComponent(OutputManifest.fileName).path)
    }

    /// Staging folders of runs that were killed (their process is gone): a static host or `rsync` would
    /// otherwise publish them. Only ever called with the folder's lock held, so no live run's staging is touched.
    static func removeAbandonedStaging(in folder: URL) {
        removeAbandonedBeside(folder)
        let own = ProcessInfo.processInfo.processIdentifier
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for entry in entries where entry.hasPrefix(stagingPrefix) {
            guard let pid = Int32(entry.dropFirst(stagingPrefix.count)), pid != own else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }  // That process is still running.
            let abandoned = folder.appendingPathComponent(entry)
            // Killed while swapping entries: the swap is undone.
            if let journal = try? String(
                contentsOf: abandoned.appendingPathComponent(journalName), encoding: .utf8)
            {
                undoAbandonedSwap(in: folder, staging: abandoned, journal: journal)
                try? FileManager.default.removeItem(at: abandoned)
                continue
            }
            // No list: killed before its first swap or after its last, or left by a Vitrine older than the list.
            // An old version whose new one never arrived goes back, so no catalog is left without its objects/.
            for item in (try? FileManager.default.contentsOfDirectory(atPath: abandoned.path)) ?? []
            where item.hasPrefix(replacedPrefix) {
                let target = folder.appendingPathComponent(String(item.dropFirst(replacedPrefix.count)))
                if !FileManager.default.fileExists(atPath: target.path) {
                    try? FileManager.default.moveItem(at: abandoned.appendingPathComponent(item), to: target)
                }
            }
            try? FileManager.default.removeItem(at: abandoned)
        }
    }
}
