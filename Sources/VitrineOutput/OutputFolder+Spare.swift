import Foundation

// The spare catalog: after its exchange, a big catalog's old version is kept beside the output folder
// (`.Output.vitrine-spare`) instead of being removed, and the next export stages into it. Its files that the new
// catalog shows unchanged stay where they are; only the files that differ are written, linked or removed. So a
// re-run of a big gallery touches the files of what changed, not a link and a removal for every page, and the
// output folder still changes in one exchange. Files unchanged between the two catalogs are one file on disk (a
// hard link), so the spare costs only the old versions of what changed.
extension OutputFolder {
    /// A catalog of this many files or more keeps a spare: below it, linking every file costs little and a hidden
    /// folder beside the output is not worth it (the demo's catalog stays below it).
    package static let spareThreshold = 2_000

    /// `.Output.vitrine-spare`, beside the output folder.
    package static func spareURL(of destination: URL) -> URL {
        besideFolder(destination, named: ".vitrine-spare")
    }

    /// Renames the spare catalog as this run's staging folder and returns what its files were made from (`files`,
    /// read by the caller); nothing when there is no spare or it cannot be used, which is then removed. Once
    /// renamed, the spare is this run's staging folder: a run killed from here on leaves a staging folder, which the
    /// next export removes, never a spare that says it holds files it does not.
    ///
    /// The spare is the catalog before last, as it stood when it was replaced: what the user put there then is no
    /// longer Vitrine's to stage into. Its links go (never followed: nothing is written through one), and so do its
    /// top-level files that its manifest does not list (the user's, linked again from the output folder at the
    /// commit). A link deeper down goes when the run stages a folder through it (`stageFolder`), or at the commit.
    static func adoptSpare(of destination: URL, as staging: URL, files: ManifestTable) -> ManifestTable {
        let spare = spareURL(of: destination)
        var status = stat()
        guard lstat(spare.path, &status) == 0 else { return ManifestTable() }
        guard status.st_mode & S_IFMT == S_IFDIR, !files.isEmpty, rename(spare.path, staging.path) == 0 else {
            removeCatalog(spare.path, of: destination)
            return ManifestTable()
        }
        for name in topLevelNames(of: staging.path) where !files.contains(name) || isLink(staging.path + "/" + name) {
            let path = staging.appendingPathComponent(name).path
            if isPlainFile(path) { unlink(path) }
        }
        return files
    }

    /// Removes from the adopted spare what this run did not stage (`staged`): pages of objects gone since that
    /// catalog, and top-level entries it no longer writes (`letters/` of a bigger collection). Walks the folder,
    /// so a file its manifest did not list goes too (Vitrine's own files an older version kept there). The staging
    /// folder's lock stays.
    func removeSpareLeftovers(staged: PathHashTable<Void>, entries: Set<String>) {
        for name in Self.topLevelNames(of: stagingPath) where name != Self.stagingLockName {
            let path = stagingPath + "/" + name
            guard entries.contains(name) else {
                try? FileManager.default.removeItem(atPath: path)
                continue
            }
            var gone: [String] = []
            OutputManifest.walkFiles(in: path, relative: name) { (file: UnsafeBufferPointer<UInt8>) in
                if staged[key: PathHashTable<Void>.key(file)] == nil {
                    gone.append(String(decoding: file, as: UTF8.self))
                }
            }
            for file in gone { unlink(stagingPath + "/" + file) }
        }
    }

    /// Keeps the old catalog, beside the output folder after the exchange, as the spare (its own staging lock file
    /// gone). Returns whether it did.
    static func keepAsSpare(_ old: URL, of destination: URL) -> Bool {
        let spare = spareURL(of: destination)
        removeCatalog(spare.path, of: destination)
        return rename(old.path, spare.path) == 0
    }
}
