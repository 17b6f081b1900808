import Foundation
import VitrineCore

/// Checking, measuring and pruning the page cache: `vitrine cache`, and the check an export makes first.
extension FilePageCache {
    /// Fails, saying why, when the cache folder cannot be created or written (a file, a read-only disk): a
    /// harvest that could not store its pages could not be resumed, and the user would not know.
    package func checkWritable() throws(ExportError) {
        let probe = directory.appendingPathComponent(".write-check-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data().write(to: probe)
            try FileManager.default.removeItem(at: probe)
        } catch {
            let reason = (error as NSError).localizedDescription
            throw ExportError(
                .configuration(
                    "the page cache at \(directory.path) cannot be written (\(reason)); a harvest could not be "
                        + "resumed: choose another --cache, or --no-cache"))
        }
    }

    /// What the cache holds.
    package struct Usage: Sendable, Equatable {
        package var entries = 0
        package var bytes = 0
        package var oldest: Date?
        package var newest: Date?
    }

    /// Counts the entries and their size, and finds the oldest and newest.
    package func usage() -> Usage {
        var usage = Usage()
        for (_, size, modified) in entries() {
            usage.entries += 1
            usage.bytes += size
            usage.oldest = min(usage.oldest ?? modified, modified)
            usage.newest = max(usage.newest ?? modified, modified)
        }
        return usage
    }

    /// Removes entries stored more than `age` seconds ago (every entry when `age` is 0), and temporary files
    /// a killed run left; returns how many entries went.
    @discardableResult
    package func prune(olderThan age: TimeInterval) -> Int {
        let cutoff = now().addingTimeInterval(-age)
        var removed = 0
        for (url, _, modified) in entries(includingTemporary: true) where age == 0 || modified < cutoff {
            if (try? FileManager.default.removeItem(at: url)) != nil, url.pathExtension == "page" { removed += 1 }
        }
        return removed
    }

    /// Every entry file, with its size and when it was written.
    private func entries(includingTemporary: Bool = false) -> [(URL, Int, Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard
            let walker = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: keys, options: [])
        else { return [] }
        var found: [(URL, Int, Date)] = []
        while let url = walker.nextObject() as? URL {
            let isEntry = url.pathExtension == "page" && !url.lastPathComponent.hasPrefix(".")
            let isTemporary = url.lastPathComponent.hasPrefix(".") && url.lastPathComponent.contains(".page.")
            guard isEntry || (includingTemporary && isTemporary),
                let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
            else { continue }
            found.append((url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
        }
        return found
    }
}
