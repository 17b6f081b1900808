import Foundation
import VitrineCore

// The commit entry by entry, for an output folder that cannot be exchanged whole (see `exchangeRefusal`): each
// top-level entry is swapped in by a rename, with a journal the next export uses to undo a swap cut off part way.
extension OutputFolder {
    /// Swaps the staged entries into the output folder one by one, in order, then writes the new manifest.
    func swapEntries(
        _ entries: [String], made: [String: OutputManifest.Made]
    ) throws(ExportError) {
        // Both runs' files are Vitrine's while the entries are swapped: a run killed half-way must not leave the
        // next one believing the new files are the user's. The old manifest and the list of entries to swap are
        // kept in the staging folder first: the next export undoes a swap that was cut off (see
        // `undoAbandonedSwap`), so the folder never stays a mix of two runs. This rare commit reads the old manifest
        // whole again: the run held it only by path hashes.
        let previous = OutputManifest.read(in: destination)
        do {
            try previous.write(in: staging)
            try UnsyncedFile.write(
                Array(entries.joined(separator: "\n").utf8), to: stagingPath + "/" + Self.journalName)
            try OutputManifest(made: previous.made.merging(made) { $1 }, unfingerprinted: previous.unfingerprinted)
                .write(in: destination)
        } catch {
            throw ExportError(
                .output("cannot write \(OutputManifest.fileName) in \(destination.path): \(Self.reason(error))"))
        }
        var swapped: [(target: URL, old: URL?)] = []
        for entry in entries {
            let staged = staging.appendingPathComponent(entry)
            let target = destination.appendingPathComponent(entry)
            do {
                swapped.append((target, try replace(target, with: staged)))
                commitStep?()
            } catch {
                // A permission error half-way: put back what was already swapped, so the old catalog stays whole.
                rollBack(swapped)
                try? previous.write(in: destination)
                throw ExportError(.output("cannot move \(entry) into \(destination.path): \(Self.reason(error))"))
            }
        }
        // Every entry is in place: from here on a cut-off run leaves the new catalog, not a mix.
        unlink(stagingPath + "/" + Self.journalName)
        previous.removeFiles(outside: Set(entries), in: destination)
        do {
            try OutputManifest(made: made).write(in: destination)
        } catch {
            throw ExportError(
                .output("cannot write \(OutputManifest.fileName) in \(destination.path): \(Self.reason(error))"))
        }
    }

    /// A file is replaced by one `rename`, which is atomic; a folder is moved aside first, then swapped in.
    /// Returns where the old version was put aside (`nil` when there was none), for a roll-back.
    func replace(_ target: URL, with staged: URL) throws -> URL? {
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: target.path, isDirectory: &isDirectory) else {
            try fileManager.moveItem(at: staged, to: target)
            return nil
        }
        let old = staging.appendingPathComponent(Self.replacedPrefix + target.lastPathComponent)
        if isDirectory.boolValue {
            try fileManager.moveItem(at: target, to: old)
            try fileManager.moveItem(at: staged, to: target)
        } else {
            // A hard link keeps the old file for a roll-back; the rename swaps the new one in atomically.
            guard link(target.path, old.path) == 0, rename(staged.path, target.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
            }
        }
        return old
    }

    /// Puts the old versions of swapped entries back, newest first.
    func rollBack(_ swapped: [(target: URL, old: URL?)]) {
        for (target, old) in swapped.reversed() {
            try? fileManager.removeItem(at: target)
            if let old { try? fileManager.moveItem(at: old, to: target) }
        }
    }

}
