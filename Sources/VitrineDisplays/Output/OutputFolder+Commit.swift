import Foundation
import VitrineCore

// The commit: what was staged becomes the output folder, in one exchange where it can be (see
// `OutputFolder+Exchange.swift`), else entry by entry (`OutputFolder+EntrySwap.swift`).
extension OutputFolder {
    /// Moves every staged file or folder into place, replacing the old one, and removes the staging folder.
    /// Returns the paths written, as the user gave the output folder.
    package func commit(displayRoot: String) throws(ExportError) -> [String] {
        let (stagedEntries, log) = staged.withLock { state in
            defer { state.made = StagedManifest() }
            return (state.entries, state.made)
        }
        // The formats are staged side by side: the catalogs' own files first, then the rest by name, so the
        // summary reads the same on every run.
        let rank = ["index.html": 0, "catalog.md": 1, "collection.csv": 2]
        let entries = stagedEntries.sorted { (rank[$0] ?? 3, $0) < (rank[$1] ?? 3, $1) }
        // Three walks of every file, side by side: the spare's files this run did not stage, files of the user's in
        // the way, and the new manifest (written into the staging folder, which becomes the output folder). The
        // longest first, the shortest last: started last, the spare's walk (the staged paths' table, then the
        // folder) ran alone on one core after the manifest while the other waited (perf, two cores).
        let foreign = Locked<[String]>([])
        let manifestWritten = Locked(false)
        DispatchQueue.concurrentPerform(iterations: 3) { job in
            switch job {
            case 0:
                if !spare.isEmpty {
                    removeSpareLeftovers(staged: PathHashTable(staged: log), entries: Set(stagedEntries))
                }
            case 1:
                if !force {
                    let found = entries.flatMap { previous.foreignFiles(at: $0, in: destination) }
                    foreign.withLock { $0 = found }
                }
            default:
                let written = (try? log.write(in: staging)) != nil
                manifestWritten.withLock { $0 = written }
            }
        }
        let inTheWay = foreign.current
        if !inTheWay.isEmpty {
            discard()
            let named = inTheWay.prefix(5).map { "\(displayRoot)/\($0)" }.joined(separator: ", ")
            let more = inTheWay.count > 5 ? " and \(inTheWay.count - 5) more" : ""
            let them = inTheWay.count == 1 ? "it" : "them"
            throw ExportError(
                .output(
                    "\(named)\(more) would be replaced, and Vitrine did not write \(them); "
                        + "choose another --output, move \(them) away, or pass --force"))
        }
        let root = displayRoot.hasSuffix("/") ? String(displayRoot.dropLast()) : displayRoot
        // The whole folder in one exchange where it can be: no reader ever sees two runs' files at once.
        let (entrySet, written) = (Set(entries), previous.topLevelEntries)
        let reason =
            exchangeRefusal(staged: entrySet, written: written)
            ?? exchangeWhole(
                staged: entrySet, written: written, manifestWritten: manifestWritten.current,
                keepSpare: log.count >= keepsSpareFrom && !previous.isEmpty)
        guard let reason else {
            discard()
            return entries.map { "\(root)/\($0)" }
        }
        swapReason.withLock { $0 = reason }
        try swapEntries(entries, made: log.table())
        discard()
        return entries.map { "\(root)/\($0)" }
    }
}
