import Foundation
import VitrineCore
import VitrineFiles

// Opening an output folder: refused when it cannot be exchanged, its lock taken, and the manifests of the live
// catalog and of the spare read. An export into a folder that holds a catalog opens it when it starts
// (`CatalogWriter.openOutputFolder`), before its harvest: a folder another export is writing into, or one that
// cannot be written as a whole, stops it at once rather than after hours of harvesting, and the manifests are read
// while the harvest runs.

extension OutputFolder {
    /// The output folder's lock, held from `init` until an `OutputFolder` takes it over (or this is let go), and its
    /// two manifests, read side by side in tasks of their own (or at once, for an `OutputFolder` that opens its
    /// folder itself).
    package final class Opening: Sendable {
        let destination: URL
        /// Whether opening made the folder: a first export that fails removes it again, if nothing was put in it.
        let created: Bool
        /// The lock file's descriptor; -1 once an `OutputFolder` has taken it over.
        private let lockDescriptor: Locked<Int32>
        private let previous = Locked(ManifestTable())
        private let spare = Locked(ManifestTable())
        /// The manifests being read; `takeOver` comes after `manifestsRead`, which sets `read`.
        private let reading: [Task<Void, Never>]
        private let read = Locked(false)

        /// Creates the folder if needed, takes its lock (or says that another export holds it), and reads its
        /// manifests: at once, or in tasks that `manifestsRead` awaits.
        package init(_ destination: URL, readingNow: Bool = false) throws(ExportError) {
            self.destination = destination
            // `--output new/site` makes `new/` too, as `mkdir -p` would.
            let parent = destination.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw ExportError(
                    .output("cannot create \(parent.path): \(OutputFolder.reason(error, path: parent.path))"))
            }
            try OutputFolder.checkExchangeable(destination)
            created = !FileManager.default.fileExists(atPath: destination.path)
            do {
                try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            } catch {
                throw ExportError(
                    .output("cannot create \(destination.path): \(OutputFolder.reason(error, path: destination.path))"))
            }
            lockDescriptor = Locked(try OutputFolder.lock(destination))
            try CatalogRecords.prepareRoot(of: destination)
            CatalogRecords.checkWithoutBirthTime(destination)
            CatalogRecords.adoptCopy(of: destination.path, output: destination)
            let tables = [(previous, destination), (spare, OutputFolder.spareURL(of: destination))]
            guard !readingNow else {
                for (table, url) in tables {
                    table.withLock { $0 = ManifestTable(ofCatalog: url.path, output: destination) }
                }
                reading = []
                read.withLock { $0 = true }
                return
            }
            reading = tables.map { table, url in
                Task.detached(priority: .userInitiated) {
                    let files = ManifestTable(ofCatalog: url.path, output: destination)
                    table.withLock { $0 = files }
                }
            }
        }

        /// Waits until both manifests are read.
        package func manifestsRead() async {
            for task in reading { await task.value }
            read.withLock { $0 = true }
        }

        deinit {
            release()
        }

        /// Hands the manifests over with the lock (whose descriptor the caller now closes), once they are read.
        func takeOver() -> (lock: Int32, previous: ManifestTable, spare: ManifestTable, created: Bool) {
            precondition(read.current, "an output folder was taken over before its manifests were read")
            let lock = lockDescriptor.withLock { descriptor in
                defer { descriptor = -1 }
                return descriptor
            }
            let previous = Self.take(previous)
            return (lock, previous, Self.take(spare).sharing(with: previous), created)
        }

        /// A table handed over, not copied: it holds an entry for every file of the catalog.
        private static func take(_ table: Locked<ManifestTable>) -> ManifestTable {
            table.withLock { table in
                defer { table = ManifestTable() }
                return table
            }
        }

        /// Lets the lock go, when no `OutputFolder` has taken it over (the harvest failed).
        private func release() {
            lockDescriptor.withLock { descriptor in
                if descriptor >= 0, created { rmdir(destination.path) }
                if descriptor >= 0 { close(descriptor) }
                descriptor = -1
            }
        }
    }
}
