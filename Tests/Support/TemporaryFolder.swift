import Foundation

/// A fresh folder under the system's temporary folder, removed when the test is done with it.
package final class TemporaryFolder {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    private init(url: URL) {
        self.url = url
    }

    /// A folder of the test's own (inside another temporary folder), removed like one made by `init()`.
    package static func adopting(_ url: URL) throws -> TemporaryFolder {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return TemporaryFolder(url: url)
    }

    package var path: String { url.path }

    package func read(_ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
        // What an export keeps beside its output folder: the old catalog of a big one, the lock, the records.
        for suffix in [".vitrine-spare", ".vitrine-lock", ".vitrine-records"] {
            try? FileManager.default.removeItem(
                at: url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + suffix))
        }
    }

    /// Relative path (`/objects/sk-c-5.html`) → contents of every regular file under `folder`, the export's lock
    /// file aside.
    package static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count))
            if path.hasSuffix(".vitrine-lock") { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }
}
