import Foundation
import VitrineCore

/// The files the last export wrote into an output folder, listed in `.vitrine-manifest`: the only files the
/// next export may replace or remove. Anything else in the folder is the user's, and an export that would
/// replace it stops and names it (unless told `--force`).
///
/// Each line is a path, and for a rendered page the fingerprint of what it was made from and its size: a
/// re-run keeps a file whose fingerprint has not changed (and whose size is still the one written) instead of
/// rendering it again.
package struct OutputManifest: Sendable, Equatable {
    package static let fileName = ".vitrine-manifest"
    static let header = "# vitrine manifest 2: the files the last export wrote here; anything else is yours"

    /// What a rendered file was made from, and how many bytes it had.
    package struct Made: Sendable, Equatable {
        package var fingerprint: Fingerprint
        package var size: Int
    }

    /// Paths relative to the output folder, `/`-separated.
    package var files: Set<String>
    /// The fingerprint and size of each rendered file.
    package var made: [String: Made]

    package init(files: Set<String>, made: [String: Made] = [:]) {
        self.files = files
        self.made = made
    }

    /// The folder's manifest; empty when it has none (a new folder, or one Vitrine never wrote).
    package static func read(in folder: URL) -> OutputManifest {
        guard let text = try? String(contentsOf: folder.appendingPathComponent(fileName), encoding: .utf8) else {
            return OutputManifest(files: [])
        }
        var manifest = OutputManifest(files: [])
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let path = String(fields[0])
            // A hand-edited or hostile manifest must not point outside the folder.
            guard isSafe(path) else { continue }
            manifest.files.insert(path)
            if fields.count == 3, let fingerprint = Fingerprint(hex: fields[1]), let size = Int(fields[2]) {
                manifest.made[path] = Made(fingerprint: fingerprint, size: size)
            }
        }
        return manifest
    }

    /// Writes the manifest atomically: a temporary file, then one rename.
    func write(in folder: URL) throws {
        let lines = files.sorted().map { path in
            made[path].map { "\(path)\t\($0.fingerprint)\t\($0.size)" } ?? path
        }
        let text = ([Self.header] + lines).joined(separator: "\n") + "\n"
        let temporary = folder.appendingPathComponent(Self.fileName + ".tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, folder.appendingPathComponent(Self.fileName).path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder.path])
        }
    }

    /// Files at or under the top-level `entry` of `folder` that this manifest does not list: the user's.
    func foreignFiles(at entry: String, in folder: URL) -> [String] {
        let target = folder.appendingPathComponent(entry)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return files.contains(entry) ? [] : [entry] }
        var foreign: [String] = []
        let walker = FileManager.default.enumerator(atPath: target.path)
        while let relative = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = entry + "/" + relative
            guard
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            if !files.contains(path) { foreign.append(path) }
        }
        return foreign.sorted()
    }

    /// Removes the listed files whose top-level entry this export did not write (a `letters/` or `catalog/` of an
    /// earlier, larger export), then the folders that leaves empty.
    func removeFiles(outside entries: Set<String>, in folder: URL) {
        var parents: Set<String> = []
        for path in files {
            let top = path.split(separator: "/").first.map(String.init) ?? path
            guard !entries.contains(top) else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(path))
            var parent = (path as NSString).deletingLastPathComponent
            while !parent.isEmpty {
                parents.insert(parent)
                parent = (parent as NSString).deletingLastPathComponent
            }
        }
        // Deepest first; a folder that still holds anything (the user's files) stays.
        for parent in parents.sorted(by: { $0.count > $1.count }) {
            let url = folder.appendingPathComponent(parent)
            if (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.isEmpty == true {
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    /// A relative path that stays inside the folder.
    static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
            && !path.contains("\0") && !path.contains("\t")
    }
}
