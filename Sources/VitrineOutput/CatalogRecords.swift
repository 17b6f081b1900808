import CFolderExchange
import Foundation

/// Vitrine's own records of one catalog folder (the output folder, its spare, a staging folder): its manifest and
/// its pages' fragment indexes. They are kept beside the output folder (`.Output.vitrine-records/`), never in the
/// published site, in a folder named after the catalog folder's identity (device, inode, birth time). That identity
/// survives the exchange, so records written for a staging folder describe the output folder it becomes, and
/// records never describe a folder made later at the same path: records go before their folder does.
package struct CatalogRecords: Sendable, Equatable {
    /// `.Output.vitrine-records/<identity>`.
    package let folder: URL

    /// The records of the catalog folder at `catalog`, beside `destination` (the output folder); `nil` when there is
    /// no folder at `catalog`.
    package init?(of catalog: String, output destination: URL) {
        guard let identity = Self.identity(of: catalog) else { return nil }
        folder = Self.root(of: destination).appendingPathComponent(identity, isDirectory: true)
    }

    /// Where one record is (`manifest`, `artists.fragments`).
    package func path(_ name: String) -> String {
        folder.path + "/" + name
    }

    /// `.Output.vitrine-records`, beside the output folder.
    static func root(of destination: URL) -> URL {
        OutputFolder.besideFolder(destination, named: ".vitrine-records")
    }

    /// An empty records folder, whatever a folder of this identity held before (a folder removed by hand whose
    /// inode is used again, on a file system without birth times).
    func makeEmpty() throws {
        remove()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Removes the records; called before their folder is removed.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Records for a catalog folder (the output folder; a benchmark's restored spare) that has none by its identity
    /// but is a copy of one that had: the newest records, of no folder there is, whose manifest the folder's files
    /// bear out (each listed file there, a plain file of the size listed) are taken as its own. A site restored from
    /// a copy with its records beside it (`cp -a` of the folder that holds both) is then Vitrine's as before, and a
    /// folder of other files is not.
    package static func adoptCopy(of catalog: String, output destination: URL) {
        guard let own = CatalogRecords(of: catalog, output: destination),
            !FileManager.default.fileExists(atPath: own.path(OutputManifest.fileName))
        else { return }
        let root = root(of: destination).path
        let claimed = aliveNames(of: destination)
        let names = OutputFolder.topLevelNames(of: root).filter { !claimed.contains($0) }
        let candidates = names.compactMap { name -> (path: String, date: Date)? in
            let manifest = root + "/" + name + "/" + OutputManifest.fileName
            let date = (try? FileManager.default.attributesOfItem(atPath: manifest))?[.modificationDate] as? Date
            return date.map { (root + "/" + name, $0) }
        }
        for candidate in candidates.sorted(by: { $0.date > $1.date }) {
            guard OutputManifest.bearsOut(candidate.path + "/" + OutputManifest.fileName, in: catalog)
            else { continue }
            own.remove()
            if rename(candidate.path, own.folder.path) == 0 { return }
        }
    }

    /// Removes the records of catalog folders that are gone (removed by hand, or by a run killed in between): all but
    /// those of the output folder, its spare and the staging folders beside it.
    static func removeOrphans(of destination: URL) {
        let alive = aliveNames(of: destination)
        let root = root(of: destination).path
        for name in OutputFolder.topLevelNames(of: root) where !alive.contains(name) {
            try? FileManager.default.removeItem(atPath: root + "/" + name)
        }
    }

    /// The names of the records of the catalog folders there are: the output folder, its spare, staging folders.
    private static func aliveNames(of destination: URL) -> Set<String> {
        let parent = destination.deletingLastPathComponent().path
        let prefix = "." + destination.lastPathComponent + OutputFolder.stagingInfix
        var folders = [destination.path, OutputFolder.spareURL(of: destination).path]
        folders += OutputFolder.topLevelNames(of: parent).filter { $0.hasPrefix(prefix) }.map { parent + "/" + $0 }
        return Set(folders.compactMap(identity(of:)))
    }

    /// `dev-inode-birth`, in hexadecimal; `nil` when nothing is at `path`.
    private static func identity(of path: String) -> String? {
        var identity: [UInt64] = [0, 0, 0, 0]
        let found = identity.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { vitrine_folder_identity(path, $0) == 0 } ?? false
        }
        guard found else { return nil }
        return "\(String(identity[0], radix: 16))-\(String(identity[1], radix: 16))-"
            + "\(String(identity[2], radix: 16)).\(String(identity[3], radix: 16))"
    }
}
