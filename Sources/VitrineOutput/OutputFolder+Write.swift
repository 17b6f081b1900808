import Foundation
import VitrineCore
import VitrineFiles

// Writing into the staging folder: a file whole or in pieces, its folders made once, and each file's fingerprint
// noted for the manifest (or the last export's file kept when it would come out the same).
extension OutputFolder {
    /// Stages a file at a path relative to the output folder (`index.html`, `assets/style.css`). Written with
    /// plain `write(2)`, no `fsync` per file: the staging folder as a whole is what is moved into place, and a
    /// 100,000-object gallery is 100,000 files.
    /// - parameter fingerprint: what a rendered file was made from, kept in the manifest so the next export can
    ///   keep the file when it would render the same.
    ///   Without one, the file's own bytes are its fingerprint: a file whose bytes did not change is kept, not
    ///   written again.
    package func write(
        _ data: some ContiguousBytes, to relativePath: String, fingerprint: Fingerprint? = nil
    ) throws(ExportError) {
        var fingerprint = fingerprint
        if fingerprint == nil {
            var contents = Fingerprint()
            data.withUnsafeBytes { contents.combine(words: $0) }
            if keep(relativePath, fingerprint: contents) { return }
            fingerprint = contents
        }
        let target = stagingPath + "/" + relativePath
        let modified: Int64
        do {
            try stage(relativePath, at: target)
            modified = try UnsyncedFile.write(data, to: target)
        } catch {
            throw ExportError(.output("cannot write \(target): \(Self.reason(error))"))
        }
        let size = data.withUnsafeBytes(\.count)
        staged.withLock {
            if let fingerprint {
                $0.made.append(
                    relativePath, OutputManifest.Made(fingerprint: fingerprint, size: size, modified: modified))
            }
            $0.rendered += 1
        }
    }

    /// Starts a file written piece by piece, over however long: `finish(_:at:)` ends it.
    /// - parameter hashingBytes: whether its bytes are its fingerprint; not when `finish` is given one.
    package func startPieces(to relativePath: String, hashingBytes: Bool = true) throws(ExportError) -> FilePieces {
        let target = stagingPath + "/" + relativePath
        do {
            try stage(relativePath, at: target)
            return try FilePieces(path: target, hashingBytes: hashingBytes)
        } catch {
            throw ExportError(.output("cannot write \(target): \(Self.reason(error))"))
        }
    }

    /// Ends a file `startPieces` started. When its bytes came out the same as the last export's file, that file is
    /// kept instead, as `write` keeps one.
    /// - parameter fingerprint: what a rendered file was made from (see `write`); without one, its bytes.
    /// - parameter keepingSame: keep the last export's file, as for bytes, when it was made from `fingerprint`
    ///   (a page whose fingerprint was worked out as it was rendered, not asked for before).
    package func finish(
        _ pieces: FilePieces, at relativePath: String, fingerprint: Fingerprint? = nil, keepingSame: Bool = false
    ) throws(ExportError) {
        let target = stagingPath + "/" + relativePath
        pieces.finish()
        if let failure = pieces.failure {
            throw ExportError(.output("cannot write \(target): \(Self.reason(failure))"))
        }
        guard
            let made = (fingerprint ?? pieces.fingerprint).map({
                OutputManifest.Made(fingerprint: $0, size: pieces.size, modified: pieces.modified)
            })
        else { throw ExportError(.output("\(target) was written with neither its bytes hashed nor a fingerprint")) }
        if fingerprint == nil || keepingSame, let last = previous[relativePath], last.isAlike(made),
            try keepLast(relativePath, last, insteadOf: target)
        {
            return
        }
        staged.withLock {
            $0.made.append(relativePath, made)
            $0.rendered += 1
        }
    }

    /// Records a staged path and makes its folder once. In a spare catalog, the file there is unlinked first: it
    /// may be the same file as the live catalog's (a hard link), which must not change before the commit.
    func stage(_ relativePath: String, at target: String) throws {
        let folder = target.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(target[..<$0]) } ?? target
        try stageFolder(folder, of: relativePath)
        if !spare.isEmpty { unlink(target) }
    }

    /// Records the top-level entry of a staged path, and makes `folder` (the staging folder's, where the path
    /// goes) once. A link on the way (left in the spare catalog) is removed, never followed.
    func stageFolder(_ folder: String, of relativePath: String) throws {
        let needsFolder = staged.withLock {
            $0.enter(relativePath)
            return !$0.folders.contains(folder)
        }
        if needsFolder {
            var path = stagingPath
            for component in folder.dropFirst(stagingPath.count).split(separator: "/") {
                path += "/" + component
                var status = stat()
                if lstat(path, &status) == 0 {
                    if status.st_mode & S_IFMT == S_IFDIR { continue }
                    unlink(path)
                }
                guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            }
            staged.withLock { _ = $0.folders.insert(folder) }
        }
    }

    /// Writes one of this catalog's records (`artists.fragments`) piece by piece: beside the output folder, never
    /// in the published catalog, and not in its manifest.
    package func writeRecord(_ name: String, inPieces body: (FilePieces) throws(ExportError) -> Void)
        throws(ExportError)
    {
        let path = records.path(name)
        let pieces: FilePieces
        do {
            pieces = try FilePieces(path: path, hashingBytes: false)
        } catch {
            throw ExportError(.output("cannot write \(path): \(Self.reason(error))"))
        }
        defer { pieces.finish() }
        try body(pieces)
        if let failure = pieces.failure { throw ExportError(.output("cannot write \(path): \(Self.reason(failure))")) }
    }

    /// The size of the file staged (written or kept) at `relativePath`; `nil` when there is none.
    package func stagedSize(_ relativePath: String) -> Int? {
        var status = stat()
        guard lstat(stagingPath + "/" + relativePath, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return nil
        }
        return Int(status.st_size)
    }

    /// Stages a text file, UTF-8.
    package func write(_ text: String, to relativePath: String) throws(ExportError) {
        try write(Array(text.utf8), to: relativePath)
    }
}
