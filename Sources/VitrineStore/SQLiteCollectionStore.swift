import Foundation
import GRDB
import VitrineCore

/// The collection store in one SQLite file per collection (source, base URL and filters), under
/// `{cache}/stores/`. Opening it takes a lock that keeps a second export of the same collection out, migrates a
/// store made by an older Vitrine, and refuses a damaged or foreign file, or one made by a newer Vitrine, naming
/// its path and what to do.
package final class SQLiteCollectionStore: CollectionStore, Sendable {
    package let location: String
    let database: DatabaseQueue
    /// Section keys of the makers a run holds so far (see `ObjectRow.SectionKeys`).
    let stagingKeys = Locked(ObjectRow.SectionKeys())
    /// Where the run's collection is (see `SQLiteCollectionStore+Run.swift`).
    let runTables = Locked(RunTables.run)
    /// The open lock file (`flock`), held while the store is: the kernel releases it however the process ends.
    private let lockDescriptor: Int32

    /// Opens (or creates) the store of `collection` in `directory`.
    /// - parameter collection: what names the collection: the source and its first request's URL, secrets
    ///   hidden. Kept in the store and checked on every open.
    /// - parameter startOver: `--full`: a damaged store is replaced instead of refused.
    package init(directory: URL, source: String, collection: String, startOver: Bool = false) throws(ExportError) {
        let folder = directory.appendingPathComponent("stores", isDirectory: true)
        let file = Self.file(directory: directory, source: source, collection: collection)
        location = file.path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ExportError(.store("cannot create the collection store's folder \(folder.path): \(error)"))
        }
        lockDescriptor = try Self.lock(file.path + ".lock", store: file.path)
        do {
            database = try Self.open(file, collection: collection)
        } catch let refusal as StoreRefusal where startOver {
            // `--full` makes everything anew: the damaged store goes, and with it nothing the page cache holds.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
            do {
                database = try Self.open(file, collection: collection)
            } catch {
                close(lockDescriptor)
                throw ExportError(.store("cannot make a new collection store at \(file.path): \(refusal.reason)"))
            }
        } catch let refusal as StoreRefusal {
            close(lockDescriptor)
            throw ExportError(.store("the collection store \(file.path) \(refusal.reason)"))
        } catch {
            close(lockDescriptor)
            throw ExportError(.store("cannot open the collection store \(file.path): \(Self.reason(error))"))
        }
    }

    deinit {
        close(lockDescriptor)
    }

    /// The database file of a collection's store under `directory`.
    static func file(directory: URL, source: String, collection: String) -> URL {
        directory.appendingPathComponent("stores", isDirectory: true).appendingPathComponent(
            "\(fileStem(source))-\(digest(collection)).sqlite")
    }

    /// Whether a collection has a store under `directory`.
    package static func exists(directory: URL, source: String, collection: String) -> Bool {
        FileManager.default.fileExists(atPath: file(directory: directory, source: source, collection: collection).path)
    }

    // MARK: - CollectionStore

    package func state() throws(ExportError) -> StoreState {
        try access("read the harvest state of") { db in
            let values = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, value FROM harvest").map {
                    ($0[0] as String, $0[1] as String)
                })
            var state = StoreState(
                harvestedAt: values["harvested_at"], harvests: Int(values["harvests"] ?? "") ?? 0,
                repositoryName: values["repository_name"])
            if let counts = values["unpublished"]?.split(separator: " ").compactMap({ Int($0) }), counts.count == 3 {
                state.unpublished = StoreChanges(new: counts[0], changed: counts[1], deleted: counts[2])
            }
            if let id = values["pending_id"] {
                var span: ChangeWindow?
                if values["pending_span_from"] != nil || values["pending_span_until"] != nil {
                    span = ChangeWindow(from: values["pending_span_from"], until: values["pending_span_until"])
                }
                state.pending = PendingHarvest(
                    id: id, changesFrom: values["pending_from"], startedAt: values["pending_started"], span: span)
            }
            return state
        }
    }

    package func storedKeys(notIn listed: [String]) throws(ExportError) -> [String] {
        try storedKeys(listed, among: false)
    }

    package func storedKeys(among listed: [String]) throws(ExportError) -> [String] {
        try storedKeys(listed, among: true)
    }

    private func storedKeys(_ listed: [String], among: Bool) throws(ExportError) -> [String] {
        try write("compare the listed records with") { db in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS listed (record_key BLOB PRIMARY KEY)")
            try db.execute(sql: "DELETE FROM temp.listed")
            let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO temp.listed VALUES (?)")
            for key in listed { try insert.execute(arguments: [ObjectRow.key(key)]) }
            let keys = try Data.fetchAll(
                db,
                sql: "SELECT record_key FROM object WHERE record_key \(among ? "IN" : "NOT IN") "
                    + "(SELECT record_key FROM temp.listed)")
            try db.execute(sql: "DROP TABLE temp.listed")
            return keys.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    package func begin(_ harvest: PendingHarvest) throws(ExportError) {
        try write("record the harvest under way in") { db in
            try Self.record(pending: harvest, in: db)
        }
    }

    package func discardIfNeverHarvested() {
        guard let state = try? state(), state.harvests == 0,
            (try? access("count the objects of") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM object") })
                == 0
        else { return }
        try? database.close()
        for suffix in ["", "-wal", "-shm", "-journal", ".lock"] { unlink(location + suffix) }
    }

    // MARK: - SQLite

    /// The names of the harvest under way's values in the `harvest` table (`pending_until` is an older
    /// Vitrine's).
    static let pendingNames = [
        "pending_id", "pending_from", "pending_until", "pending_started", "pending_span_from", "pending_span_until",
    ]

    static func record(_ state: StoreState, in db: Database) throws {
        try db.execute(sql: "DELETE FROM harvest WHERE name = 'harvested_at'")
        var values = ["harvests": String(state.harvests)]
        if let harvestedAt = state.harvestedAt { values["harvested_at"] = harvestedAt }
        if let name = state.repositoryName { values["repository_name"] = name }
        if let unpublished = state.unpublished {
            values["unpublished"] = "\(unpublished.new) \(unpublished.changed) \(unpublished.deleted)"
        }
        try set(values, in: db)
        try record(pending: state.pending, in: db)
    }

    static func record(pending: PendingHarvest?, in db: Database) throws {
        let names = pendingNames.map { "'\($0)'" }.joined(separator: ", ")
        try db.execute(sql: "DELETE FROM harvest WHERE name IN (\(names))")
        guard let pending else { return }
        var values = ["pending_id": pending.id]
        values["pending_from"] = pending.changesFrom
        values["pending_started"] = pending.startedAt
        values["pending_span_from"] = pending.span?.from
        values["pending_span_until"] = pending.span?.until
        try set(values, in: db)
    }

    static func set(_ values: [String: String], in db: Database) throws {
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "INSERT OR REPLACE INTO harvest (name, value) VALUES (?, ?)", arguments: [name, value])
        }
    }

    func access<Value>(_ doing: String, _ work: (Database) throws -> Value) throws(ExportError) -> Value {
        do {
            return try database.read(work)
        } catch {
            throw failure(doing, error)
        }
    }

    func write<Value>(_ doing: String, _ work: (Database) throws -> Value) throws(ExportError) -> Value {
        do {
            return try database.write(work)
        } catch {
            throw failure(doing, error)
        }
    }

    /// The failure of a store found to disagree with itself (`finding`), with what SQLite's own check says.
    func damaged(_ finding: String) -> ExportError {
        let check = (try? database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(5)") }) ?? []
        let said = check == ["ok"] ? "" : " (SQLite's check: \(check.prefix(3).joined(separator: "; ")))"
        return ExportError(
            .store(
                "the collection store \(location) is damaged: \(finding)\(said); run with --full to make it anew"))
    }

    private func failure(_ doing: String, _ error: any Error) -> ExportError {
        ExportError(.store("cannot \(doing) the collection store \(location): \(Self.reason(error))"))
    }

    /// What went wrong, in a user's words, with what to do.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return String(describing: error) }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "it is damaged (\(error.message ?? "SQLite error \(error.resultCode.rawValue)")); run with --full "
                + "to make it anew"
        case .SQLITE_FULL:
            return "the disk is full (the store's, or the temporary folder's, where a run is built: TMPDIR can name "
                + "another)"
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            return "it cannot be written (\(error.message ?? "permission denied")); check --cache"
        default:
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
    }
}
