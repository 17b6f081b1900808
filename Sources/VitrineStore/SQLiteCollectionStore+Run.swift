import Foundation
import GRDB
import VitrineCore

/// The collection a run builds, in a temporary table (`temp.run`) of the store's connection: pages are staged
/// there as they arrive, so the harvest holds no objects; the Presenter reads it a section at a time; and when the
/// run read everything, it becomes the stored collection in one transaction. A temporary table is the
/// connection's own: never in the store's file, gone with the process however it ends.
///
/// A run that starts from the stored collection (an incremental run, or one from the store alone) does not copy
/// it: `temp.run` holds only the objects it staged and `temp.gone` the stored records it deleted, and the run's
/// collection is the two laid over the stored one (`overlaid`). Copying 100,000 stored objects and indexing them
/// twice was a tenth of a night's run.
extension SQLiteCollectionStore {
    package func startRun(fromStored: Bool) throws(ExportError) -> Int {
        try write("start the run's collection in") { db in
            try db.execute(sql: "DROP TABLE IF EXISTS temp.run")
            try db.execute(sql: "DROP TABLE IF EXISTS temp.gone")
            try db.execute(
                sql: "CREATE TEMP TABLE run AS SELECT \(ObjectRow.columns), 0 AS page, 0 AS position FROM object "
                    + "WHERE 0")
            try db.execute(sql: "CREATE UNIQUE INDEX temp.run_by_key ON run(record_key)")
            runTables.withLock { $0 = fromStored ? .overlaid : .run }
            guard fromStored else { return 0 }
            try db.execute(sql: "CREATE TEMP TABLE gone (record_key BLOB NOT NULL PRIMARY KEY) WITHOUT ROWID")
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM object") ?? 0
        }
    }

    /// The stored objects the run neither staged nor deleted: with `temp.run`, the run's collection.
    static let storedKept =
        "record_key NOT IN (SELECT record_key FROM temp.run) AND record_key NOT IN (SELECT record_key FROM temp.gone)"

    /// A query of the run's collection (`columns` of the rows that meet `condition`), where it is.
    static func runCollection(in tables: RunTables, columns: String = ObjectRow.columns, where condition: String? = nil)
        -> String
    {
        let filter = condition.map { " WHERE \($0)" } ?? ""
        switch tables {
        case .run:
            return "SELECT \(columns) FROM temp.run\(filter)"
        case .stored:
            return "SELECT \(columns) FROM object\(filter)"
        case .overlaid:
            return "SELECT \(columns) FROM temp.run\(filter) UNION ALL SELECT \(columns) FROM object WHERE "
                + (condition.map { "\($0) AND " } ?? "") + storedKept
        }
    }

    package func stage(
        _ changes: [StagedChange], replaces: (ArtObject, SectionIndex.Place, StagedRecord) -> Bool
    ) throws(ExportError) -> (added: Int, removed: Int) {
        let overlaid = runTables.current == .overlaid
        return try write("stage a page in") { db in
            let add = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO temp.run (\(ObjectRow.stagedColumns)) "
                    + "VALUES (\(ObjectRow.placeholders), ?, ?)")
            let replace = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO temp.run (\(ObjectRow.stagedColumns)) "
                    + "VALUES (\(ObjectRow.placeholders), ?, ?)")
            let kept = try db.cachedStatement(
                sql: "SELECT datestamp, page, position FROM temp.run WHERE record_key = ?")
            let remove = try db.cachedStatement(sql: "DELETE FROM temp.run WHERE record_key = ?")
            var (added, removed) = (0, 0)
            for change in changes {
                switch change {
                case .object(let object, let place):
                    let sectionKey = stagingKeys.withLock { $0.key(for: object.maker) }
                    let key = ObjectRow.key(object.recordKey.text)
                    // A record identifier the run's collection has already: the Interactor decides which stays.
                    func keepWinner(over record: StagedRecord, writingWith statement: Statement) throws {
                        guard replaces(object, place, record) else { return }
                        try ObjectRow.bind(object, sectionKey: sectionKey, place: place, to: statement)
                        try statement.execute()
                    }
                    func record(_ row: Row) -> StagedRecord {
                        StagedRecord(datestamp: row[0], place: SectionIndex.Place(page: row[1], position: row[2]))
                    }
                    // Over the stored collection the run's table holds only what the run staged: a record staged
                    // already is the one to beat; else one the stored collection keeps, at the stored place.
                    if overlaid {
                        if let row = try Row.fetchOne(kept, arguments: [key]) {
                            try keepWinner(over: record(row), writingWith: replace)
                            continue
                        }
                        if let stored = try Self.storedDatestamp(key, in: db) {
                            try keepWinner(over: StagedRecord(datestamp: stored, place: .stored), writingWith: add)
                            continue
                        }
                    }
                    try ObjectRow.bind(object, sectionKey: sectionKey, place: place, to: add)
                    try add.execute()
                    if db.changesCount > 0 {
                        added += 1
                        continue
                    }
                    guard let row = try Row.fetchOne(kept, arguments: [key]) else { continue }
                    try keepWinner(over: record(row), writingWith: replace)
                case .deletion(let recordID):
                    let key = ObjectRow.key(recordID)
                    try remove.execute(arguments: [key])
                    var present = db.changesCount > 0
                    if overlaid, try Self.storedDatestamp(key, in: db) != nil {
                        try db.execute(sql: "INSERT OR IGNORE INTO temp.gone (record_key) VALUES (?)", arguments: [key])
                        present = true
                    }
                    if present { removed += 1 }
                }
            }
            return (added, removed)
        }
    }

    /// Whether the stored collection has a record the run has not deleted, and its datestamp (`.some(nil)`: it has
    /// one without a datestamp).
    private static func storedDatestamp(_ key: Data, in db: Database) throws -> String?? {
        let statement = try db.cachedStatement(
            sql: "SELECT datestamp FROM object WHERE record_key = ? AND record_key NOT IN (SELECT record_key FROM "
                + "temp.gone)")
        guard let row = try Row.fetchOne(statement, arguments: [key]) else { return nil }
        return .some(row[0])
    }

    package func runSections() throws(ExportError) -> any StoredSections {
        var tables = runTables.current
        if tables == .overlaid {
            // A run laid over the stored collection that staged and deleted nothing (one from the store alone,
            // `--offline`) reads the stored collection as it is.
            let unchanged = try access("read the run's collection in") { db in
                try Bool.fetchOne(
                    db, sql: "SELECT NOT EXISTS (SELECT 1 FROM temp.run) AND NOT EXISTS (SELECT 1 FROM temp.gone)")
            }
            if unchanged == true { tables = .stored }
        }
        if tables != .stored {
            try write("read the run's collection in") { db in
                try db.execute(
                    sql: "CREATE INDEX IF NOT EXISTS temp.run_by_section ON run(section_key, order_key, record_key)")
            }
        }
        return RunSections(store: self, tables: tables)
    }
}

/// The run's collection as the Presenter reads it: its sections, then each section's objects.
private final class RunSections: StoredSections {
    let store: SQLiteCollectionStore
    /// Where the run's collection is.
    let tables: RunTables
    /// The sections and how many objects have bundled pictures, read once (the Interactor counts the sections,
    /// the Presenter lists them).
    private let listed = Locked<Listing?>(nil)

    private struct Listing: Sendable {
        var sections: [(maker: String?, count: Int)]
        var bundled: Int
    }

    init(store: SQLiteCollectionStore, tables: RunTables) {
        self.store = store
        self.tables = tables
    }

    func sections() throws(ExportError) -> [(maker: String?, count: Int)] {
        try listing().sections
    }

    /// The sections, and how many objects have bundled pictures: the stored collection's from its counts (see
    /// `SectionCounts`); a run's collection not stored (a run that did not read everything) in one pass over it.
    private func listing() throws(ExportError) -> Listing {
        if let listing = listed.current { return listing }
        let listing = try store.access("read the sections of") { db in
            var listing = Listing(sections: [], bundled: 0)
            guard tables != .stored else {
                for section in try SectionCounts.stored(in: db) {
                    listing.sections.append((section.key.isEmpty ? nil : section.key, section.objects))
                    listing.bundled += section.bundled
                }
                return listing
            }
            let collection = SQLiteCollectionStore.runCollection(in: tables, columns: "section_key, image_sizing")
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT section_key, count(*), sum(\(SectionCounts.bundledPictures)) FROM (\(collection)) "
                    + "GROUP BY section_key")
            while let row = try rows.next() {
                let key: String = row[0]
                listing.sections.append((key.isEmpty ? nil : key, row[1]))
                listing.bundled += row[2] as Int? ?? 0
            }
            return listing
        }
        listed.withLock { $0 = listing }
        return listing
    }

    /// A section's objects in catalog order: the stored table is clustered in it, and a run's collection laid over
    /// it is merged by SQLite on the same key.
    func objects(maker: String?, count: Int) throws(ExportError) -> [ArtObject] {
        let collection =
            SQLiteCollectionStore.runCollection(in: tables, where: "section_key = ?1")
            + " ORDER BY order_key, record_key"
        return try store.access("read a section of") { db in
            try ObjectRow.objects(db.cachedStatement(sql: collection), arguments: [maker ?? ""], capacity: count)
        }
    }

    func bundledImageURLs() throws(ExportError) -> [String] {
        guard try listing().bundled > 0 else { return [] }
        let collection = SQLiteCollectionStore.runCollection(
            in: tables, columns: "image_url", where: SectionCounts.bundledPictures)
        return try store.access("read the bundled pictures of") { db in
            try String.fetchAll(db, sql: collection)
        }
    }
}

/// Where a run's collection is: `temp.run` (a full harvest); `temp.run` and `temp.gone` laid over the stored
/// collection (a run that started from it); or, once the run is committed, the stored collection itself.
enum RunTables: Sendable {
    case run
    case overlaid
    case stored
}
