import Foundation
import VitrineCore
import VitrineFiles

// The commit: the staged catalog takes the output folder's place in one exchange (`OutputFolder+Exchange.swift`);
// what the user keeps in the folder is carried over; formats this run did not write stay as the last run left them.
extension OutputFolder {
    /// Makes the staged catalog the output folder, and removes or keeps (as the spare) the old one. Returns the
    /// top-level paths written, as the user gave the output folder.
    /// - parameter otherFormat: whether a top-level entry the last export wrote belongs to a format this run does
    ///   not write: it is then kept as it is, or removed with a notice when `keepingOtherFormats` is off. Other
    ///   entries the last export wrote and this one did not go.
    package func commit(
        displayRoot: String, otherFormat: (String) -> Bool = { _ in false }, keepingOtherFormats: Bool = true
    ) async throws(ExportError) -> [String] {
        // The formats are staged side by side: the catalogs' own files first, then the rest by name, so the
        // summary reads the same on every run.
        let rank = ["index.html": 0, "catalog.md": 1, "collection.csv": 2, "collection.jsonl": 3]
        let ordered = { (entries: [String]) in entries.sorted { (rank[$0] ?? 4, $0) < (rank[$1] ?? 4, $1) } }
        let written = ordered(staged.withLock { $0.entries })
        var carried: [String] = []
        var removedFormats: [String] = []
        for entry in ordered(Array(previous.topLevelEntries)) where !written.contains(entry) {
            guard otherFormat(entry) else { continue }
            if keepingOtherFormats {
                try carry(entry)
                carried.append(entry)
            } else {
                removedFormats.append(entry)
            }
        }
        let (stagedEntries, log) = staged.withLock { state in
            defer { state.made = StagedManifest() }
            return (state.entries, state.made)
        }
        let entries = ordered(stagedEntries)
        // Two walks side by side: the spare's files this run did not stage go, and the new manifest is written.
        async let leftoversRemoved: Void =
            spare.isEmpty
            ? () : removeSpareLeftovers(staged: PathHashTable(staged: log), entries: Set(stagedEntries))
        let manifestFailure: String?
        do {
            try log.write(in: records.folder)
            manifestFailure = nil
        } catch {
            manifestFailure = Self.reason(error)
        }
        await leftoversRemoved
        if let failure = manifestFailure {
            discard()
            throw ExportError(.output("cannot write \(records.path(OutputManifest.fileName)): \(failure)"))
        }
        try exchange(
            staged: Set(entries), carried: Set(carried), keepSpare: log.count >= keepsSpareFrom && !previous.isEmpty)
        let root = displayRoot.hasSuffix("/") ? String(displayRoot.dropLast()) : displayRoot
        if !carried.isEmpty {
            note(
                "kept \(Self.listed(carried, in: root)) as the last export wrote \(carried.count == 1 ? "it" : "them"): "
                    + "this run did not write \(carried.count == 1 ? "that format" : "those formats") "
                    + "(--remove-other-formats removes them)")
        }
        if !removedFormats.isEmpty {
            note("removed \(Self.listed(removedFormats, in: root)) (--remove-other-formats)")
        }
        CatalogRecords.removeOrphans(of: destination)
        CrashPoint.outputCommitted.reach()
        releaseLock()
        return written.map { "\(root)/\($0)" }
    }

    /// `Output/index.html, Output/assets/` (folders with a slash).
    static func listed(_ entries: [String], in root: String) -> String {
        entries.map { "\(root)/\($0)\($0.contains(".") ? "" : "/")" }.joined(separator: ", ")
    }

    func note(_ line: String) {
        commitNotices.withLock { $0.append(line) }
    }

    /// Stages a top-level entry of the live catalog as it is: every file hard-linked (links themselves, never
    /// followed), and the manifest's lines for Vitrine's files kept.
    private func carry(_ entry: String) throws(ExportError) {
        let live = destination.path + "/" + entry
        let target = stagingPath + "/" + entry
        // In the spare catalog the entry is an older version of itself.
        try? FileManager.default.removeItem(atPath: target)
        var status = stat()
        guard lstat(live, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            guard linkat(AT_FDCWD, live, AT_FDCWD, target, 0) == 0 else {
                throw ExportError(.output("cannot keep \(live): \(Self.lastError)"))
            }
            staged.withLock { state in
                state.enter(entry)
                if let made = previous[entry] { state.made.append(entry, made) }
            }
            return
        }
        var failure: String?
        OutputManifest.walkFiles(in: live, relative: entry) { (path: String) in
            guard failure == nil else { return }
            let to = stagingPath + "/" + path
            let folder = String(to[..<(to.lastIndex(of: "/") ?? to.endIndex)])
            do {
                try stageFolder(folder, of: path)
            } catch {
                failure = "\(folder): \(Self.reason(error))"
                return
            }
            guard linkat(AT_FDCWD, destination.path + "/" + path, AT_FDCWD, to, 0) == 0 else {
                failure = "\(destination.path)/\(path): \(Self.lastError)"
                return
            }
            if let made = previous[path] { staged.withLock { $0.made.append(path, made) } }
        }
        if let failure { throw ExportError(.output("cannot keep \(failure)")) }
        staged.withLock { $0.enter(entry) }
    }
}
