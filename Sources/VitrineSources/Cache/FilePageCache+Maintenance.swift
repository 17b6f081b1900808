import Foundation
import VitrineCore
import VitrineFiles

/// Checking, measuring and clearing the page cache: `vitrine cache`, and the check an export makes first. Only
/// Vitrine's own layout is touched: harvest folders under `harvests/` whose names are harvest identifiers, the
/// collection stores under `stores/` by their file names, and the entries of the layout before harvests had
/// folders (`{2 hex}/{32 hex}.page`); anything else under `--cache` is left alone.
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
        /// Harvests under way (each a folder of pages), and their pages.
        package var harvests = 0
        package var pages = 0
        package var bytes = 0
        /// When the oldest and newest harvest under way last stored a page.
        package var oldest: Date?
        package var newest: Date?
        /// Collection stores (database files), and their size with their journals.
        package var stores: [String] = []
        package var storeBytes = 0
    }

    /// Counts the harvests under way and their pages, and the collection stores.
    package func usage() -> Usage {
        var usage = Usage()
        for harvest in harvestFolders() {
            usage.harvests += 1
            usage.pages += harvest.pages
            usage.bytes += harvest.bytes
            usage.oldest = min(usage.oldest ?? harvest.modified, harvest.modified)
            usage.newest = max(usage.newest ?? harvest.modified, harvest.modified)
        }
        for legacy in legacyEntries() {
            usage.pages += 1
            usage.bytes += legacy.size
        }
        for file in storeFiles() {
            if file.name.hasSuffix(".sqlite") { usage.stores.append(file.name) }
            usage.storeBytes += file.size
        }
        usage.stores.sort()
        return usage
    }

    /// What a clean-up removed.
    package struct Removal: Sendable, Equatable {
        package var harvests = 0
        package var pages = 0
        package var stores = 0
        /// Stores an export is using now, left alone.
        package var busyStores: [String] = []
    }

    /// Removes the harvests under way that stored no page for `age` seconds (with their pages), and the entries of
    /// the older layout as old; with `stores`, every collection store no export is using too (`--clear`).
    @discardableResult
    package func remove(olderThan age: TimeInterval, stores: Bool = false) -> Removal {
        let cutoff = Date().addingTimeInterval(-age)
        var removal = Removal()
        for harvest in harvestFolders() where age == 0 || harvest.modified < cutoff {
            if (try? FileManager.default.removeItem(atPath: harvest.path)) != nil {
                removal.harvests += 1
                removal.pages += harvest.pages
            }
        }
        for legacy in legacyEntries() where age == 0 || legacy.modified < cutoff {
            if unlink(legacy.path) == 0 { removal.pages += 1 }
        }
        guard stores else { return removal }
        let folder = directory.appendingPathComponent("stores").path
        for file in storeFiles() where file.name.hasSuffix(".sqlite") {
            let path = folder + "/" + file.name
            // An export holds the store's lock while it runs: its store is left alone.
            guard case .held(let lock) = FileLock.take(path + ".lock") else {
                removal.busyStores.append(file.name)
                continue
            }
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            unlink(path + ".lock")
            close(lock)
            removal.stores += 1
        }
        return removal
    }

    /// Each harvest folder: its path, pages, bytes, and when it last stored a page.
    private func harvestFolders() -> [(path: String, pages: Int, bytes: Int, modified: Date)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: harvests.path)) ?? []
        return names.filter(Self.isHarvestID).sorted().compactMap { name in
            let path = harvests.appendingPathComponent(name).path
            guard Self.isRealFolder(path) else { return nil }
            var (pages, bytes) = (0, 0)
            var modified = Self.modified(path) ?? .distantPast
            for fanOut in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let fanOutPath = path + "/" + fanOut
                for entry in (try? FileManager.default.contentsOfDirectory(atPath: fanOutPath)) ?? []
                where entry.hasSuffix(".page") && !entry.hasPrefix(".") {
                    var status = stat()
                    guard lstat(fanOutPath + "/" + entry, &status) == 0 else { continue }
                    pages += 1
                    bytes += Int(status.st_size)
                    modified = max(modified, Self.date(status))
                }
            }
            return (path, pages, bytes, modified)
        }
    }

    /// Entries of the layout before harvests had folders: `{cache}/{2 hex}/{32 hex}.page`, and their temporary
    /// files (`.{32 hex}.page.…`).
    private func legacyEntries() -> [(path: String, size: Int, modified: Date)] {
        let hex = { (text: Substring) in text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } }
        var found: [(String, Int, Date)] = []
        for fanOut in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where fanOut.utf8.count == 2 && hex(fanOut[...]) {
            let folder = directory.path + "/" + fanOut
            guard Self.isRealFolder(folder) else { continue }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let stem = name.hasPrefix(".") ? name.dropFirst().prefix(32) : name.prefix(32)
                let rest = name.hasPrefix(".") ? name.dropFirst(33) : name.dropFirst(32)
                guard stem.utf8.count == 32, hex(stem),
                    rest == ".page" || (name.hasPrefix(".") && rest.hasPrefix(".page."))
                else { continue }
                var status = stat()
                guard lstat(folder + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
                found.append((folder + "/" + name, Int(status.st_size), Self.date(status)))
            }
        }
        return found
    }

    /// The collection stores' files (`{source}-{16 hex}.sqlite` and its journals and lock), with their sizes.
    private func storeFiles() -> [(name: String, size: Int)] {
        let folder = directory.appendingPathComponent("stores").path
        guard Self.isRealFolder(folder) else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { name in
            guard let dot = name.range(of: ".sqlite"), let dash = name[..<dot.lowerBound].lastIndex(of: "-") else {
                return nil
            }
            let digest = name[name.index(after: dash)..<dot.lowerBound]
            let suffix = name[dot.upperBound...]
            guard digest.utf8.count == 16,
                digest.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
                ["", "-wal", "-shm", "-journal", ".lock"].contains(String(suffix))
            else { return nil }
            var status = stat()
            guard lstat(folder + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            return (name, suffix == ".lock" ? 0 : Int(status.st_size))
        }
    }

    /// Whether `path` is a folder, not a link to one.
    private static func isRealFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private static func modified(_ path: String) -> Date? {
        var status = stat()
        return lstat(path, &status) == 0 ? date(status) : nil
    }

    private static func date(_ status: stat) -> Date {
        #if os(macOS)
            Date(timeIntervalSince1970: TimeInterval(status.st_mtimespec.tv_sec))
        #else
            Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))
        #endif
    }
}
