import Foundation

// The spare catalog: after its exchange, a big catalog's old version is kept beside the output folder
// (`.Output.vitrine-spare`) instead of being removed, and the next export stages into it. Its files that the new
// catalog shows unchanged stay where they are; only the files that differ are written, linked or removed. So a
// re-run of a 100,000-page gallery that changed 1% touches a few thousand files, not 100,000 links and 100,000
// removals, and the output folder still changes in one exchange. Files unchanged between the two catalogs are
// one file on disk (a hard link), so the spare costs only the old versions of what changed.
extension OutputFolder {
    /// A catalog of this many files or more keeps a spare: below it, linking every file costs less than a
    /// millisecond per hundred and a hidden folder beside the output is not worth it (the demo writes ~630).
    package static let spareThreshold = 2_000

    /// `.Output.vitrine-spare`, beside the output folder.
    package static func spareURL(of destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            "." + destination.lastPathComponent + ".vitrine-spare")
    }

    /// Moves the spare catalog into the output folder as this run's staging folder and returns its manifest (what
    /// its files were made from, read by the caller); an empty one when there is no spare or it cannot be used,
    /// which is then removed.
    /// Once moved, the spare is this run's staging folder: a run killed from here on leaves a staging folder,
    /// which the next export removes, never a spare that says it holds files it does not.
    static func adoptSpare(of destination: URL, as staging: URL, manifest: OutputManifest) -> OutputManifest {
        let spare = spareURL(of: destination)
        var status = stat()
        guard lstat(spare.path, &status) == 0 else { return OutputManifest() }
        guard status.st_mode & S_IFMT == S_IFDIR, !manifest.made.isEmpty, rename(spare.path, staging.path) == 0 else {
            try? FileManager.default.removeItem(at: spare)
            return OutputManifest()
        }
        // Its manifest and lock were the old catalog's; the user's top-level files linked into it then are
        // linked again from the output folder at the commit.
        let entries = manifest.topLevelEntries
        for name in topLevelNames(of: staging.path) where !entries.contains(name) {
            try? FileManager.default.removeItem(at: staging.appendingPathComponent(name))
        }
        return manifest
    }

    /// Removes from the adopted spare what this run did not stage: pages of objects gone since that catalog, and
    /// top-level entries it no longer writes (`letters/` of a bigger collection).
    func removeSpareLeftovers(made: [String: OutputManifest.Made], entries: Set<String>) {
        for path in spare.files where made[path] == nil {
            unlink(stagingPath + "/" + path)
        }
        for name in Self.topLevelNames(of: stagingPath) where !entries.contains(name) {
            try? FileManager.default.removeItem(at: staging.appendingPathComponent(name))
        }
    }

    /// Keeps the old catalog, beside the output folder after the exchange, as the spare. Returns whether it did.
    static func keepAsSpare(_ old: URL, of destination: URL) -> Bool {
        let spare = spareURL(of: destination)
        try? FileManager.default.removeItem(at: spare)
        return rename(old.path, spare.path) == 0
    }
}
