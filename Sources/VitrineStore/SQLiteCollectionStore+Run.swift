import Foundation
import GRDB
import VitrineCore

/// The collection a run builds, in a temporary table (`temp.run`) of the store's connection: pages are added
/// there as they arrive, so the harvest holds no objects; the Interactor reads it a section at a time; and when the
/// run read everything, it becomes the stored collection in one transaction. A temporary table is the
/// connection's own: never in the store's file, gone with the process however it ends.
///
/// `temp.run` holds the version of each record the run listed that wins (`deleted = 1` for a deleted record).
/// A run that starts from the stored collection (an incremental run, or one from the store alone) does not copy
/// it: its collection is the run's objects laid over the stored ones the run did not list (`overlaid`).
extension SQLiteCollectionStore {
    package func startRun(fromStored: Bool) throws(ExportError) -> Int {
        try write("start the run's collection in") { db in
            try db.execute(sql: "DROP TABLE IF EXISTS temp.run")
            try db.execute(
                sql: "CREATE TEMP TABLE run AS SELECT \(ObjectRow.columns), 0 AS page, 0 AS position, 0 AS deleted "
                    + "FROM object WHERE 0")
            try db.execute(sql: "CREATE UNIQUE INDEX temp.run_by_key ON run(record_key)")
            runTables.withLock { $0 = fromStored ? .overlaid : .run }
            guard fromStored else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM object") ?? 0
        }
    }

    /// The stored objects the run did not list: with the run's objects, the run's collection.
    static let storedKept = "record_key NOT IN (SELECT record_key FROM temp.run)"

    /// A query of the run's collection (`columns` of the objects that meet `condition`), where it is.
    static func runCollection(in tables: RunTables, columns: String = ObjectRow.columns, where condition: String? = nil)
        -> String
    {
        let filter = condition.map { " AND \($0)" } ?? ""
        switch tables {
        case .run:
            return "SELECT \(columns) FROM temp.run WHERE deleted = 0\(filter)"
        case .stored:
            return "SELECT \(columns) FROM object" + (condition.map { " WHERE \($0)" } ?? "")
        case .overlaid:
            return "SELECT \(columns) FROM temp.run WHERE deleted = 0\(filter) UNION ALL SELECT \(columns) FROM object "
                + "WHERE \(storedKept)\(filter)"
        }
    }

    package func addToRun(
        _ changes: [RunChange], replaces: (RunVersion, RunVersion) -> Bool
    ) throws(ExportError) -> Int {
        let overlaid = runTables.current == .overlaid
        return try write("add a page to the run in") { db in
            let write = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO temp.run (\(ObjectRow.runColumns)) "
                    + "VALUES (\(ObjectRow.placeholders), ?, ?, ?)")
            let kept = try db.cachedStatement(
                sql: "SELECT datestamp, page, position, deleted FROM temp.run WHERE record_key = ?")
            let stored = try db.cachedStatement(sql: "SELECT 1 FROM object WHERE record_key = ?")
            var grown = 0
            for change in changes {
                let new = change.record
                let key: Data
                switch change {
                case .object(let object, _): key = ObjectRow.key(object.recordKey.text)
                case .deletion(let recordID, _, _): key = ObjectRow.key(recordID)
                }
                // Whether the run's collection holds an object of this identifier before and after the change.
                let wasObject: Bool
                if let row = try Row.fetchOne(kept, arguments: [key]) {
                    let held = RunVersion(
                        datestamp: row[0], place: SectionIndex.Place(page: row[1], position: row[2]),
                        isObject: (row[3] as Int) == 0)
                    guard replaces(new, held) else { continue }
                    wasObject = held.isObject
                } else {
                    // What the server lists now replaces what is stored, whatever its datestamp.
                    wasObject = overlaid ? try Row.fetchOne(stored, arguments: [key]) != nil : false
                }
                switch change {
                case .object(let object, let place):
                    let sectionKey = stagingKeys.withLock { $0.key(for: object.maker) }
                    try ObjectRow.bind(object, sectionKey: sectionKey, place: place, to: write)
                case .deletion(let recordID, let datestamp, let place):
                    try ObjectRow.bindDeletion(recordID, datestamp: datestamp, place: place, to: write)
                }
                try write.execute()
                grown += (new.isObject ? 1 : 0) - (wasObject ? 1 : 0)
            }
            return grown
        }
    }

    package func runSections(showing selection: CatalogSelection = .all) throws(ExportError) -> any StoredSections {
        var tables = runTables.current
        if tables == .overlaid {
            // A run laid over the stored collection that added and deleted nothing (one from the store alone,
            // `--offline`) reads the stored collection as it is.
            let unchanged = try access("read the run's collection in") { db in
                try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM temp.run)")
            }
            if unchanged == true { tables = .stored }
        }
        if tables != .stored {
            try write("read the run's collection in") { db in
                try db.execute(
                    sql: "CREATE INDEX IF NOT EXISTS temp.run_by_section ON run(section_key, order_key, record_key)")
            }
        }
        return RunSections(store: self, tables: tables, selection: selection)
    }
}

/// The run's collection as the Interactor reads it: its sections, then each section's objects.
private final class RunSections: StoredSections {
    let store: SQLiteCollectionStore
    /// Where the run's collection is.
    let tables: RunTables
    /// Which objects it shows: an SQL condition on a row, `nil` for every one.
    let condition: String?
    /// The sections and how many objects have bundled pictures, read once (the Interactor counts the sections,
    /// then pushes them).
    private let listed = Locked<Listing?>(nil)

    private struct Listing: Sendable {
        var sections: [(maker: String?, count: Int)]
        var bundled: Int
    }

    init(store: SQLiteCollectionStore, tables: RunTables, selection: CatalogSelection) {
        self.store = store
        self.tables = tables
        switch selection {
        case .all: condition = nil
        case .openAccess: condition = "rights_open = 1"
        case .withRights: condition = "rights_label IS NOT NULL"
        }
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
            guard tables != .stored || condition != nil else {
                for section in try SectionCounts.stored(in: db) {
                    listing.sections.append((section.key.isEmpty ? nil : section.key, section.objects))
                    listing.bundled += section.bundled
                }
                return listing
            }
            let collection = SQLiteCollectionStore.runCollection(
                in: tables, columns: "section_key, image_sizing", where: condition)
            let rows = try ObjectRow.keysAndCounts(
                db,
                sql: "SELECT section_key, count(*), ifnull(sum(\(SectionCounts.bundledPictures)), 0) FROM "
                    + "(\(collection)) GROUP BY section_key")
            for row in rows {
                listing.sections.append((row.key.isEmpty ? nil : row.key, row.objects))
                listing.bundled += row.bundled
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
            SQLiteCollectionStore.runCollection(
                in: tables, where: "section_key = ?1" + (condition.map { " AND \($0)" } ?? ""))
            + " ORDER BY order_key, record_key"
        let objects = try store.access("read a section of") { db in
            try ObjectRow.objects(db.cachedStatement(sql: collection), text: maker ?? "", capacity: count)
        }
        // A store SQLite reads without an error can still have lost rows: a catalog short of them is refused.
        guard objects.count == count else {
            throw store.damaged(
                "the section \"\(maker ?? "(no maker)")\" should hold \(count) objects, but \(objects.count) were read")
        }
        return objects
    }

    func sortNames() throws(ExportError) -> [String: String] {
        let named = "sort_name IS NOT NULL" + (condition.map { " AND \($0)" } ?? "")
        let collection = SQLiteCollectionStore.runCollection(
            in: tables, columns: "section_key, sort_name", where: named)
        return try store.access("read the sort names of") { db in
            let statement = try db.makeStatement(
                sql: "SELECT section_key, min(sort_name) FROM (\(collection)) GROUP BY section_key")
            var names: [String: String] = [:]
            let rows = try Row.fetchCursor(statement)
            while try rows.next() != nil {
                if let key = ObjectRow.text(statement, 0), !key.isEmpty, let name = ObjectRow.text(statement, 1) {
                    names[key] = name
                }
            }
            return names
        }
    }

    func bundledImageURLs() throws(ExportError) -> [String] {
        guard try listing().bundled > 0 else { return [] }
        let collection = SQLiteCollectionStore.runCollection(
            in: tables, columns: "image_url",
            where: SectionCounts.bundledPictures + (condition.map { " AND \($0)" } ?? ""))
        return try store.access("read the bundled pictures of") { db in
            try String.fetchAll(db, sql: collection)
        }
    }
}

/// Where a run's collection is: `temp.run` (a full harvest); `temp.run` laid over the stored collection (a run that
/// started from it); or, once the run is committed, the stored collection itself.
enum RunTables: Sendable {
    case run
    case overlaid
    case stored
}
