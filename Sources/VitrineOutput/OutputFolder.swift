import Foundation
import VitrineCore
import VitrineFiles

/// Writes a catalog atomically: every file goes into a staging folder beside the output folder, and only when all
/// are written does the staged catalog take the output folder's place, in one exchange of the two folders. A run
/// that fails part way leaves the previous catalog as it was, and other files in the output folder (its README)
/// alone. Nothing is ever written or deleted through a symbolic link. Files may be staged from several threads at
/// once (the gallery renders its pages in parallel).
package final class OutputFolder: Sendable {
    /// Where the catalog ends up.
    package let destination: URL
    /// Where this run writes first.
    package let staging: URL
    let stagingPath: String
    /// The staging folder's records (its manifest, its fragment indexes), which become the output folder's.
    let records: CatalogRecords
    /// The output folder's records as the last export left them; `nil` before its first catalog.
    let lastRecords: CatalogRecords?
    /// Top-level entries staged so far (in the order first staged), and folders already created.
    struct Staged {
        var entries: [String] = []
        var folders: Set<String> = []
        /// Fingerprint and size of each file staged (rendered, written or kept).
        var made = StagedManifest()
        /// Files rendered and written, and files kept from the last export because nothing they show changed.
        var rendered = 0
        var kept = 0
        /// Fragments copied from the last export's pages (`TemplateFragments`).
        var copied = 0

        /// Notes the top-level entry a staged path is in.
        mutating func enter(_ relativePath: String) {
            let top =
                relativePath.utf8.firstIndex(of: UInt8(ascii: "/")).map { String(relativePath[..<$0]) } ?? relativePath
            if !entries.contains(top) { entries.append(top) }
        }
    }

    let staged = Locked(Staged())
    /// The open lock file beside the output folder: while it is held (`flock`), no other export writes into this
    /// folder, across the exchange too. The kernel releases it when the process ends, however it ends.
    private let lockDescriptor: Locked<Int32>
    /// The open lock file inside the staging folder: while it is held, the folder is this run's, and no other export
    /// takes it for one a killed run left (a process id says nothing in a container, where every run is 1).
    private let stagingLock: Locked<Int32>

    /// What staging folders beside the output folder are called after its name (`.Output.vitrine-staging-…`).
    static let stagingInfix = ".vitrine-staging-"
    /// The lock file inside a staging folder.
    static let stagingLockName = ".vitrine-staging-lock"
    /// The lock file an older Vitrine took inside the output folder.
    static let lockName = ".vitrine-lock"

    /// Whether files this export did not write may be replaced (`--force`).
    let force: Bool
    /// Called after each step of the commit that changes what the output folder shows (tests look at the folder
    /// then, as a reader would).
    let commitStep: (@Sendable () -> Void)?
    /// Called once everything is staged, just before the exchange (tests change the live folder then).
    let beforeExchange: (@Sendable () -> Void)?
    /// What the commit did that the user should know (see `notices`).
    let commitNotices = Locked<[String]>([])
    /// Whether this export made the output folder (see `discard`).
    let createdDestination: Bool
    /// What the last export wrote here, read once the lock is held.
    let previous: ManifestTable
    /// What the staging folder already holds when it is the catalog before the last one, kept beside the output
    /// folder by the last commit (see `OutputFolder+Spare.swift`); empty when staging starts empty.
    let spare: ManifestTable
    /// A catalog of at least this many files keeps the old catalog beside the output folder after its exchange, as
    /// the next export's staging folder.
    let keepsSpareFrom: Int

    /// Creates the output folder if needed, takes its lock, removes what killed runs left behind, and makes a
    /// staging folder beside it (the spare catalog, when one is kept).
    /// - parameter force: replace files in the way even when the folder's manifest does not list them.
    /// - parameter expectedFiles: about how many files the export writes: the manifest's tables are made that
    ///   large at once (grown by doubling, a million files' entries would be held twice at the last growth).
    /// - parameter keepsSpareFrom: a catalog of at least this many files keeps the old catalog beside the output
    ///   folder after the commit, so that the next export stages into it and touches only what changed.
    /// - parameter opening: the folder as opened when the export started (its lock held, its manifests read
    ///   meanwhile, `manifestsRead` awaited), which is then the folder written; `nil` opens the folder at `path` now.
    package init(
        path: String, force: Bool = false, expectedFiles: Int = 0, keepsSpareFrom: Int = OutputFolder.spareThreshold,
        commitStep: (@Sendable () -> Void)? = nil, beforeExchange: (@Sendable () -> Void)? = nil,
        opening: Opening? = nil
    ) throws(ExportError) {
        self.force = force
        self.keepsSpareFrom = keepsSpareFrom
        self.commitStep = commitStep
        self.beforeExchange = beforeExchange
        destination = opening?.destination ?? Self.destination(path)
        staging = Self.besideFolder(destination, named: Self.stagingInfix + RandomID.hex(words: 1))
        stagingPath = staging.path
        let opened: (lock: Int32, previous: ManifestTable, spare: ManifestTable, created: Bool)
        if let opening {
            opened = opening.takeOver()
        } else {
            opened = try Opening(destination, readingNow: true).takeOver()
        }
        let descriptor = opened.lock
        lockDescriptor = Locked(descriptor)
        previous = opened.previous
        createdDestination = opened.created
        lastRecords = CatalogRecords(of: destination.path, output: destination)
        do {
            let recovered = Self.removeAbandonedStaging(of: destination)
            commitNotices.withLock { $0 += recovered }
            spare = Self.adoptSpare(of: destination, as: staging, files: opened.spare)
            if spare.isEmpty {
                guard mkdir(staging.path, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            }
            guard case .held(let held) = FileLock.take(stagingPath + "/" + Self.stagingLockName) else {
                throw POSIXError(.EACCES)
            }
            stagingLock = Locked(held)
            guard let records = CatalogRecords(of: stagingPath, output: destination) else { throw POSIXError(.ENOENT) }
            try records.makeEmpty()
            self.records = records
        } catch {
            close(descriptor)
            throw ExportError(.output("cannot create \(staging.path): \(Self.reason(error))"))
        }
        staged.withLock {
            $0.made.reserve(expectedFiles)
        }
    }

    deinit {
        releaseLock()
    }

    /// Lets the next export in: after the commit, or once the staged files are thrown away.
    func releaseLock() {
        releaseStagingLock()
        lockDescriptor.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// Lets the staging folder's own lock go (its file is gone with the folder, or just before its exchange).
    func releaseStagingLock() {
        stagingLock.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// A folder beside `destination` whose name is the output folder's after a dot, then `suffix`
    /// (`.Output.vitrine-spare`): on the same disk, and not published with the catalog.
    static func besideFolder(_ destination: URL, named suffix: some StringProtocol) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent("." + destination.lastPathComponent + suffix)
    }

    /// Whether an export wrote a catalog into `destination` (it has a manifest).
    package static func holdsCatalog(_ destination: URL) -> Bool {
        OutputManifest.path(ofCatalog: destination.path, output: destination) != nil
    }

    /// The output folder a path names, as every message shows it: made absolute, then `.` and `..` taken out by the
    /// path's text, never by following a link (Foundation's `standardizedFileURL` follows some), so that a link is
    /// seen as one. (A relative URL standardized first would lose its base: `wd/../site` became `/site`.)
    package static func destination(_ path: String) -> URL {
        URL(fileURLWithPath: path, isDirectory: true).absoluteURL.standardized
    }

    /// Takes the folder's lock (`.Output.vitrine-lock`, beside it: the folder itself is exchanged), or says that
    /// another export holds it.
    static func lock(_ folder: URL) throws(ExportError) -> Int32 {
        let path = besideFolder(folder, named: ".vitrine-lock").path
        switch FileLock.take(path) {
        case .held(let descriptor):
            return descriptor
        case .unavailable(let reason):
            throw ExportError(.output("cannot open \(path): \(reason)"))
        case .busy:
            throw ExportError(
                .busy(
                    "another vitrine export is writing into \(folder.path); wait for it to finish, or choose "
                        + "another --output"))
        }
    }

    /// What the commit did that the user should know: formats kept or removed, files carried over, an old catalog
    /// that could not be removed.
    package var notices: [String] { commitNotices.withLock { $0 } }

    /// Fragments copied from the last export's pages so far.
    package var copiedFragments: Int { staged.withLock { $0.copied } }

    /// What the last export's manifest says a file was made from, and its size; `nil` when it did not list it.
    package func lastMade(_ relativePath: String) -> OutputManifest.Made? {
        previous[relativePath]
    }

    /// Notes fragments a page copied from the last export's pages.
    package func noteCopied(_ count: Int) {
        if count > 0 { staged.withLock { $0.copied += count } }
    }

    /// Files rendered and files kept so far.
    package var counts: (rendered: Int, kept: Int) {
        staged.withLock { ($0.rendered, $0.kept) }
    }

    /// Removes the staging folder and everything in it, and its records; the output folder is untouched, except
    /// that one this export made is removed again while it is empty (`rmdir`), so a failed first export leaves none.
    package func discard() {
        Self.removeCatalog(stagingPath, of: destination)
        if createdDestination { rmdir(destination.path) }
        releaseLock()
    }

    /// Removes a catalog folder beside the output folder. It is first renamed out of the staging folders' names
    /// (`.Output.vitrine-trash-…`), then its records go, then the folder: records never outlive their folder, and
    /// a run killed part way leaves trash, never a staging folder without records, whose every file the next export
    /// would take for the user's and carry into the site. Returns where what could not be removed is; `nil` when
    /// it is gone.
    @discardableResult
    static func removeCatalog(_ path: String, of destination: URL) -> String? {
        let trash = besideFolder(destination, named: trashInfix + RandomID.hex(words: 1)).path
        let doomed = rename(path, trash) == 0 ? trash : path
        CatalogRecords(of: doomed, output: destination)?.remove()
        do {
            try FileManager.default.removeItem(atPath: doomed)
            return nil
        } catch {
            var status = stat()
            return lstat(doomed, &status) == 0 ? doomed : nil
        }
    }

    /// What a catalog folder being removed is called (`.Output.vitrine-trash-…`): nothing in it is anyone's.
    static let trashInfix = ".vitrine-trash-"

    /// Where the last export left one of its records of the output folder (`artists.fragments`); `nil` when it
    /// left none.
    package func lastRecord(_ name: String) -> String? {
        guard let path = lastRecords?.path(name), FileManager.default.fileExists(atPath: path) else { return nil }
        return path
    }

    /// Whether `path` is a symbolic link (not followed).
    static func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// A file system error in words a user can act on: the system's reason (`No such file or directory`), or
    /// what Foundation's code means, never its domain and number (`NSCocoaErrorDomain error 512`).
    package static func reason(_ error: any Error, path: String? = nil) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError { return reason(underlying, path: path) }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        guard nsError.domain == NSCocoaErrorDomain else { return nsError.localizedDescription }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file, or a folder on its way is missing"
        case .fileWriteFileExists: return "something of that name is there already"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        default:
            let named = path ?? nsError.userInfo[NSFilePathErrorKey] as? String
            var isFolder: ObjCBool = false
            guard let named else { return "the system gave no reason (code \(nsError.code))" }
            if FileManager.default.fileExists(atPath: named, isDirectory: &isFolder), isFolder.boolValue {
                return "it is a folder"
            }
            // The nearest entry on the way that is there: a file where a folder should be is the usual cause.
            var above = URL(fileURLWithPath: named).deletingLastPathComponent()
            while above.path != "/", !FileManager.default.fileExists(atPath: above.path, isDirectory: &isFolder) {
                above.deleteLastPathComponent()
            }
            if above.path != "/", !isFolder.boolValue { return "\(above.path) is a file, not a folder" }
            return "the system gave no reason (code \(nsError.code))"
        }
    }
}
