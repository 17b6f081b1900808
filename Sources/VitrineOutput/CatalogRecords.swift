import CFolderExchange
import Foundation
import VitrineCore

/// Vitrine's own records of one catalog folder (the output folder, its spare, a staging folder): its manifest and
/// its pages' fragment indexes. They are kept beside the output folder (`.Output.vitrine-records/`), never in the
/// published site, in a folder named after the catalog folder's identity (device, inode, birth time). That identity
/// survives the exchange, so records written for a staging folder describe the output folder it becomes, and
/// records never describe a folder made later at the same path: records go before their folder does (and where no
/// birth time is kept, the folder's files must bear them out: `checkWithoutBirthTime`).
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
        OutputFolder.besideFolder(destination, named: rootSuffix)
    }

    static let rootSuffix = ".vitrine-records"

    /// Makes the records folder beside the output folder, or refuses one that is not a folder of its own: nothing
    /// is written or removed through a link.
    static func prepareRoot(of destination: URL) throws(ExportError) {
        let root = root(of: destination).path
        var status = stat()
        if lstat(root, &status) != 0 {
            guard mkdir(root, 0o755) == 0 || errno == EEXIST else {
                throw ExportError(.output("cannot create \(root): \(OutputFolder.lastError)"))
            }
            return
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            let what = status.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a folder"
            throw ExportError(
                .output(
                    "\(root) is \(what): Vitrine keeps its records of \(destination.path) there and writes nothing "
                        + "through a link; move it away, or choose another --output"))
        }
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

    /// Records for a catalog folder (the output folder; a benchmark's restored spare) that has none beside it by its
    /// identity. The folder was renamed (`mv site gallery`): its records are found by its identity beside the old
    /// name, and moved. Or it is a copy of one that had records: the newest records, of no folder there is, whose
    /// manifest the folder's files bear out (each listed file there, a plain file of the size listed) are taken as
    /// its own. A site restored from a copy with its records beside it (`cp -a` of the folder that holds both) is
    /// then Vitrine's as before, and a folder of other files is not.
    package static func adoptCopy(of catalog: String, output destination: URL) {
        guard let own = CatalogRecords(of: catalog, output: destination),
            !FileManager.default.fileExists(atPath: own.path(OutputManifest.fileName))
        else { return }
        let parent = destination.deletingLastPathComponent().path
        let ownRoot = root(of: destination).path
        guard isFolder(ownRoot) else { return }
        for name in OutputFolder.topLevelNames(of: parent) where name.hasSuffix(rootSuffix) && name.hasPrefix(".") {
            let renamed = parent + "/" + name + "/" + own.folder.lastPathComponent
            guard parent + "/" + name != ownRoot, isFolder(parent + "/" + name), isFolder(renamed) else { continue }
            own.remove()
            if rename(renamed, own.folder.path) == 0 { return }
        }
        let claimed = aliveNames(of: destination)
        let names = OutputFolder.topLevelNames(of: ownRoot).filter { isIdentity($0) && !claimed.contains($0) }
        let candidates = names.compactMap { name -> (path: String, date: Date)? in
            let manifest = ownRoot + "/" + name + "/" + OutputManifest.fileName
            let date = (try? FileManager.default.attributesOfItem(atPath: manifest))?[.modificationDate] as? Date
            return isFolder(ownRoot + "/" + name) ? date.map { (ownRoot + "/" + name, $0) } : nil
        }
        for candidate in candidates.sorted(by: { $0.date > $1.date }) {
            guard OutputManifest.bearsOut(candidate.path + "/" + OutputManifest.fileName, in: catalog)
            else { continue }
            own.remove()
            if rename(candidate.path, own.folder.path) == 0 { return }
        }
    }

    /// On a file system that keeps no birth time (overlayfs, ext4 with small inodes), a folder made after another
    /// was removed may get its inode, and with it that folder's records. There the output folder's records count
    /// only while its files bear them out (each listed file still there has its listed size), and go otherwise:
    /// the user's new files at Vitrine's paths are then refused, not replaced.
    static func checkWithoutBirthTime(_ destination: URL) {
        guard let own = CatalogRecords(of: destination.path, output: destination),
            own.folder.lastPathComponent.hasSuffix("-0.0")
        else { return }
        own.removeUnlessBorneOut(destination)
    }

    /// Removes the records unless the files of the catalog folder `catalog` bear out their manifest.
    func removeUnlessBorneOut(_ catalog: URL) {
        let manifest = path(OutputManifest.fileName)
        guard FileManager.default.fileExists(atPath: manifest),
            !OutputManifest.bearsOut(manifest, in: catalog.path, missingAllowed: true)
        else { return }
        remove()
    }

    /// Removes the records of catalog folders that are gone (removed by hand, or by a run killed in between): all but
    /// those of the output folder, its spare and the staging folders beside it.
    static func removeOrphans(of destination: URL) {
        let alive = aliveNames(of: destination)
        let root = root(of: destination).path
        guard isFolder(root) else { return }
        for name in OutputFolder.topLevelNames(of: root) where isIdentity(name) && !alive.contains(name) {
            // A link there is removed itself, never followed.
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

    /// Whether `path` is a folder itself, not a link to one.
    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether a name in the records folder is one Vitrine gives (`hex-hex-hex.hex`): nothing else there is removed.
    private static func isIdentity(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && name.allSatisfy { $0.isHexDigit || $0 == "-" || $0 == "." }
            && parts[2].split(separator: ".", omittingEmptySubsequences: false).count == 2
            && parts.allSatisfy { !$0.isEmpty }
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
