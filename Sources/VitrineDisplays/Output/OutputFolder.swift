import Foundation
import VitrineCore

/// Writes a catalog atomically: every file goes into a staging folder beside the output, and only when all
/// are written does each one replace its old version (a rename on the same disk). A run that fails part way
/// leaves the previous catalog as it was, and other files in the output folder (its README) alone.
package final class OutputFolder {
    /// Where the catalog ends up.
    package let destination: URL
    /// Where this run writes first.
    package let staging: URL
    private var entries: [String] = []
    private let fileManager = FileManager()

    /// Creates the output folder if needed and a fresh staging folder inside it.
    package init(path: String) throws(ExportError) {
        destination = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        staging = destination.appendingPathComponent(".vitrine-staging-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)
            if fileManager.fileExists(atPath: staging.path) { try fileManager.removeItem(at: staging) }
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw ExportError(.output("cannot create \(staging.path): \(Self.reason(error))"))
        }
    }

    /// Stages a file at a path relative to the output folder (`index.html`, `assets/style.css`).
    package func write(_ data: Data, to relativePath: String) throws(ExportError) {
        let target = staging.appendingPathComponent(relativePath)
        do {
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target)
        } catch {
            throw ExportError(.output("cannot write \(target.path): \(Self.reason(error))"))
        }
        let top = relativePath.split(separator: "/").first.map(String.init) ?? relativePath
        if !entries.contains(top) { entries.append(top) }
    }

    /// Stages a text file, UTF-8.
    package func write(_ text: String, to relativePath: String) throws(ExportError) {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Moves every staged file or folder into place, replacing the old one, and removes the staging folder.
    /// Returns the paths written, as the user gave the output folder.
    package func commit(displayRoot: String) throws(ExportError) -> [String] {
        for entry in entries {
            let staged = staging.appendingPathComponent(entry)
            let target = destination.appendingPathComponent(entry)
            do {
                try replace(target, with: staged)
            } catch {
                throw ExportError(.output("cannot move \(entry) into \(destination.path): \(Self.reason(error))"))
            }
        }
        discard()
        let root = displayRoot.hasSuffix("/") ? String(displayRoot.dropLast()) : displayRoot
        return entries.map { "\(root)/\($0)" }
    }

    /// A file is replaced by one `rename`, which is atomic; a folder is moved aside first, then swapped in.
    private func replace(_ target: URL, with staged: URL) throws {
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: target.path, isDirectory: &isDirectory) else {
            try fileManager.moveItem(at: staged, to: target)
            return
        }
        if isDirectory.boolValue {
            let old = staging.appendingPathComponent(".replaced-\(target.lastPathComponent)")
            try fileManager.moveItem(at: target, to: old)
            try fileManager.moveItem(at: staged, to: target)
        } else if rename(staged.path, target.path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
        }
    }

    /// Removes the staging folder and everything in it; the output folder is untouched.
    package func discard() {
        try? fileManager.removeItem(at: staging)
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return nsError.localizedDescription
    }
}
