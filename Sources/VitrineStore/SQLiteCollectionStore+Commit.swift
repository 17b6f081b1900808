import Foundation
import GRDB
import VitrineCore

/// A run's collection becoming the stored one, in one transaction: after a full run every object is stored anew;
/// after an incremental one only what it listed is written, as a few statements over the run's table.
extension SQLiteCollectionStore {
    /// Stores the run's collection and the harvest's `state`, and returns what changed. After an incremental run
    /// laid over the stored collection, its changes are exactly `temp.run`.
    package func commitRun(incremental: Bool, state: StoreState) throws(ExportError) -> StoreChanges {
        let overlaid = runTables.current == .overlaid
        let changes = try write("store the harvest in") { db in
            var state = state
            let changes =
                try (incremental && overlaid ? Self.storeChanges(db) : Self.storeAll(db, overlaid: overlaid))
                + (state.unpublished ?? StoreChanges())
            state.unpublished = changes
            try Self.record(state, in: db)
            CrashPoint.storeCommit.reach()
            return changes
        }
        // The run's collection is the stored one now, and read as it is.
        runTables.withLock { $0 = .stored }
        return changes
    }

    package func published() throws(ExportError) {
        try write("record the published catalog in") { db in
            try db.execute(sql: "DELETE FROM harvest WHERE name = 'unpublished'")
        }
    }

    /// An incremental run's changes: the listed objects that are new or differ from their stored versions are
    /// written over them (in the table's own order), and the listed deleted records go, as a few statements.
    private static func storeChanges(_ db: Database) throws -> StoreChanges {
        let deleted = "record_key IN (SELECT record_key FROM temp.run WHERE deleted = 1)"
        let changes = try count(db, deleted: deleted)
        try SectionCounts.apply(changesIn: db)
        try db.execute(sql: "DELETE FROM object WHERE \(deleted)")
        let columns = ObjectRow.columns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }
        try db.execute(
            sql: "INSERT OR REPLACE INTO object (\(ObjectRow.columns)) SELECT \(columns.joined(separator: ", ")) "
                + "FROM temp.run r LEFT JOIN object o ON o.record_key = r.record_key "
                + "WHERE r.deleted = 0 AND (o.record_key IS NULL OR \(differs(run: "r", stored: "o"))) "
                + "ORDER BY r.section_key, r.order_key, r.record_key")
        return changes
    }

    /// A full run's collection stored anew: every stored object goes, and the run's are written in the table's
    /// order. A run laid over the stored collection first takes in the stored objects it kept.
    private static func storeAll(_ db: Database, overlaid: Bool) throws -> StoreChanges {
        if overlaid {
            try db.execute(
                sql: "INSERT INTO temp.run (\(ObjectRow.runColumns)) SELECT \(ObjectRow.columns), 0, 0, 0 "
                    + "FROM object WHERE \(Self.storedKept)")
        }
        try db.execute(sql: "DELETE FROM temp.run WHERE deleted = 1")
        var changes = StoreChanges()
        if try Int.fetchOne(db, sql: "SELECT count(*) FROM object") == 0 {
            // A first harvest: everything is new.
            changes.new = try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.run") ?? 0
        } else {
            changes = try count(db, deleted: "record_key NOT IN (SELECT record_key FROM temp.run)")
            try db.execute(sql: "DELETE FROM object")
        }
        // In the stored table's own order: each row is appended to its B-tree, not inserted at random. The record
        // index is made afterwards, from the rows sorted once: kept up row by row, in an order that is not its own,
        // every row would land at a random place in it.
        try db.execute(sql: "DROP INDEX object_by_record")
        try db.execute(
            sql: "INSERT INTO object (\(ObjectRow.columns)) SELECT \(ObjectRow.columns) FROM temp.run "
                + "ORDER BY section_key, order_key, record_key")
        try db.execute(sql: StoreSchema.recordIndex)
        try SectionCounts.recount(in: db)
        return changes
    }

    /// How the run's collection differs from the stored one: records new, changed, and deleted (the stored rows
    /// that meet `deleted`).
    private static func count(_ db: Database, deleted: String) throws -> StoreChanges {
        var changes = StoreChanges()
        changes.new =
            try Int.fetchOne(
                db,
                sql:
                    "SELECT count(*) FROM temp.run WHERE deleted = 0 AND record_key NOT IN (SELECT record_key FROM object)"
            ) ?? 0
        // `CROSS JOIN` keeps the run's rows outside: SQLite, which knows no table's size, may otherwise scan the
        // stored table and look each of its rows up in the run's, which is usually far smaller.
        changes.changed =
            try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM temp.run r CROSS JOIN object o ON o.record_key = r.record_key "
                    + "WHERE r.deleted = 0 AND (\(differs(run: "r", stored: "o")))")
            ?? 0
        changes.deleted = try Int.fetchOne(db, sql: "SELECT count(*) FROM object WHERE \(deleted)") ?? 0
        return changes
    }

    /// An SQL condition: the row `run` holds another object than the row `stored` (their content columns differ;
    /// `IS NOT` takes two NULLs as equal).
    private static func differs(run: String, stored: String) -> String {
        ObjectRow.contentColumns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .map { "\(run).\($0) IS NOT \(stored).\($0)" }.joined(separator: " OR ")
    }
}
