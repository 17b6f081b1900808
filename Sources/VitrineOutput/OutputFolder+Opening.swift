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
    /// two manifests, read side by side on other threads.
    package final class Opening: Sendable {
        let destination: URL
        /// Whether opening made the folder: a first export that fails removes it again, if nothing was put in it.
        let created: Bool
        /// The lock file's descriptor; -1 once an `OutputFolder` has taken it over.
        private let lockDescriptor: Locked<Int32>
        private let read = DispatchGroup()
        private let previous = Locked(ManifestTable())
        private let spare = Locked(ManifestTable())

        /// Creates the folder if needed, takes its lock (or says that another export holds it), and starts reading
        /// its manifests.
        package init(_ destination: URL) throws(ExportError) {
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
            for (table, url) in [(previous, destination), (spare, OutputFolder.spareURL(of: destination))] {
                read.enter()
                Thread { [read] in
                    let files = ManifestTable(ofCatalog: url.path, output: destination)
                    table.withLock { $0 = files }
                    read.leave()
                }.start()
            }
        }

        deinit {
            release()
        }

        /// Waits for the manifests, and hands them over with the lock (whose descriptor the caller now closes).
        func takeOver() -> (lock: Int32, previous: ManifestTable, spare: ManifestTable, created: Bool) {
            read.wait()
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
