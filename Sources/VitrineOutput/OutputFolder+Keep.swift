import Foundation
import VitrineCore
import VitrineFiles

// Keeping a file the last export made: when it was made from the same fingerprint, the file stays (in the spare
// catalog the staging folder is) or is hard-linked from the live catalog, and nothing is rendered.

extension OutputFolder {
    /// Keeps the file the last export wrote at `relativePath` when it was made from the same `fingerprint` and
    /// is still the file written then (`Made.describes`): a hard link into the staging folder, no rendering, no new bytes. When the
    /// staging folder is the spare catalog and already holds that file, it stays as it is. Returns whether it did;
    /// when not, the caller renders the file. (`keep(_:in:fingerprints:)` for a single file.)
    package func keep(_ relativePath: String, fingerprint: Fingerprint) -> Bool {
        let (folder, name) = Self.split(relativePath)
        return keep([name], in: folder, fingerprints: [fingerprint]).first ?? false
    }

    /// `keep` for a file this run has just staged at `target` and found the same as the last export's (`made`,
    /// which the live catalog's manifest lists): the live file takes its place when it is still the file written;
    /// else the staged file stays. (The spare's file at this path, if any, was the one just written over.)
    func keepLast(_ relativePath: String, _ made: OutputManifest.Made, insteadOf target: String) throws(ExportError)
        -> Bool
    {
        var status = stat()
        guard lstat(destination.path + "/" + relativePath, &status) == 0, made.describes(status) else {
            return false
        }
        unlink(target)
        if keep(relativePath, fingerprint: made.fingerprint) { return true }
        throw ExportError(.output("cannot keep \(destination.path)/\(relativePath) in place"))
    }

    /// Whether any file may be kept: not on a first export, nor with `--force`.
    package var mayKeepAny: Bool { !(spare.isEmpty && previous.isEmpty) }

    /// Whether the last export wrote a file at this path with a fingerprint: only then is it worth working out
    /// whether it can be kept.
    package func mayKeep(_ relativePath: String) -> Bool {
        previous[relativePath] != nil || spare[relativePath] != nil
    }

    /// `keep` for many files of one folder of the catalog (a part's detail pages, in `objects`; `""` for the
    /// catalog's own folder): each is looked up by its name in the folder, opened once (not by its whole path,
    /// walked from `/` for each file), and they are staged under one lock. A night keeps nearly every detail page.
    /// Returns whether each was kept.
    ///
    /// A file is kept from the spare catalog when the staging folder (the spare) holds it, made from the same
    /// fingerprint and still the file written (`Made.describes`); else from the live catalog, likewise, by a hard
    /// link (the spare's file at that path unlinked first).
    package func keep(_ names: [String], in folder: String, fingerprints: [Fingerprint]) -> [Bool] {
        var kept = Array(repeating: false, count: names.count)
        guard mayKeepAny, !names.isEmpty else { return kept }
        let topLevel = folder.isEmpty
        let stagedFolder = topLevel ? stagingPath : stagingPath + "/" + folder
        guard topLevel || (try? stageFolder(stagedFolder, of: folder + "/")) != nil else { return kept }
        let staging = open(stagedFolder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        let liveFolder = topLevel ? destination.path : destination.path + "/" + folder
        // A live folder that is a link is not the catalog's: nothing is kept from it.
        let live = previous.isEmpty ? -1 : open(liveFolder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        defer {
            if staging >= 0 { close(staging) }
            if live >= 0 { close(live) }
        }
        guard staging >= 0 else { return kept }
        var path = Array((topLevel ? "" : folder + "/").utf8)
        let prefix = path.count
        var keeps: [(index: Int, made: OutputManifest.Made)] = []
        keeps.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            path.removeSubrange(prefix...)
            path.append(contentsOf: name.utf8)
            let key = path.withUnsafeBufferPointer { PathHashTable<OutputManifest.Made>.key($0) }
            let made = name.withCString { name -> OutputManifest.Made? in
                var status = stat()
                if let held = spare[key: key], held.fingerprint == fingerprints[index],
                    fstatat(staging, name, &status, AT_SYMLINK_NOFOLLOW) == 0, held.describes(status)
                {
                    return held
                }
                guard live >= 0, let last = previous[key: key], last.fingerprint == fingerprints[index],
                    fstatat(live, name, &status, AT_SYMLINK_NOFOLLOW) == 0, last.describes(status)
                else { return nil }
                // The spare's file at this path is the one before: it goes, the live one is linked in its place.
                if !spare.isEmpty { unlinkat(staging, name, 0) }
                return linkat(live, name, staging, name, 0) == 0 ? last : nil
            }
            if let made {
                keeps.append((index, made))
                kept[index] = true
            }
        }
        staged.withLock { staged in
            for (index, made) in keeps {
                // Each file of the catalog's own folder is an entry of it.
                if topLevel { staged.enter(names[index]) }
                staged.made.append(folder: folder, name: names[index], made)
            }
            staged.kept += keeps.count
        }
        return kept
    }

    /// A path inside the catalog as its folder (`""` at the top) and its name there.
    private static func split(_ relativePath: String) -> (folder: String, name: String) {
        guard let slash = relativePath.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", relativePath) }
        return (String(relativePath[..<slash]), String(relativePath[relativePath.utf8.index(after: slash)...]))
    }
}
