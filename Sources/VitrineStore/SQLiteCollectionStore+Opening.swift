import Foundation
import GRDB
import VitrineCore
import VitrineFiles

/// Opening a store: the lock, the checks that refuse a damaged, foreign or newer file, and the migrations.
extension SQLiteCollectionStore {
    /// Why a file cannot be used as this collection's store.
    struct StoreRefusal: Error {
        var reason: String
    }

    static func open(_ file: URL, collection: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Committed transactions survive a killed process; a power cut may lose the last one, never corrupt.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // The run's collection is a temporary table: in a file (the temporary folder), never in memory,
            // whatever the SQLite build defaults to, so a million objects do not count towards the process.
            try db.execute(sql: "PRAGMA temp_store = FILE")
        }
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: file.path, configuration: configuration)
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw StoreRefusal(reason: damaged(error))
        }
        do {
            try database.read { db in
                let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                guard application == StoreSchema.applicationID || (application == 0 && tables == 0) else {
                    throw StoreRefusal(
                        reason: "is an SQLite database of something else, not a Vitrine store; move it away, or "
                            + "run with --full to replace it")
                }
                if try StoreSchema.migrator.hasBeenSuperseded(db) {
                    throw StoreRefusal(
                        reason: "was made by a newer version of Vitrine; use that version, or run with --full to "
                            + "make it anew for this one")
                }
            }
            try StoreSchema.migrator.migrate(database)
            try database.write { db in
                let stored = try String.fetchOne(db, sql: "SELECT value FROM harvest WHERE name = 'collection'")
                if let stored, stored != collection {
                    throw StoreRefusal(
                        reason: "holds another collection (\(stored)); run with --full to make it anew for this one")
                }
                try set(["collection": collection], in: db)
                // Objects read otherwise than this build reads them are read again: the next run harvests all.
                let reading = try String.fetchOne(db, sql: "SELECT value FROM harvest WHERE name = 'reading_version'")
                if reading != String(ArtObject.readingVersion) {
                    try db.execute(sql: "DELETE FROM harvest WHERE name = 'harvested_at'")
                    try set(["reading_version": String(ArtObject.readingVersion)], in: db)
                }
            }
        } catch let refusal as StoreRefusal {
            throw refusal
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw StoreRefusal(reason: damaged(error))
        }
        return database
    }

    static func damaged(_ error: DatabaseError) -> String {
        "is damaged or not a Vitrine store (SQLite: \(error.message ?? "file is not a database")); move it away, "
            + "or run with --full to make it anew"
    }

    /// Takes the store's lock, or refuses when another export holds it.
    static func lock(_ path: String, store: String) throws(ExportError) -> Int32 {
        switch FileLock.take(path) {
        case .held(let descriptor):
            return descriptor
        case .unavailable(let reason):
            throw ExportError(.store("cannot open \(path): \(reason); check --cache"))
        case .busy:
            throw ExportError(
                .busy(
                    "another vitrine export is harvesting this collection (its store \(store) is in use); wait for "
                        + "it to finish"))
        }
    }

    /// The source's name as it may appear in a file name.
    static func fileStem(_ source: String) -> String {
        String(source.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.prefix(40))
    }

    /// A stable 64-bit digest of the collection's name (the first half of its fingerprint), in hex: one file
    /// per collection.
    static func digest(_ text: String) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(text)
        return String(fingerprint.description.prefix(16))
    }
}
