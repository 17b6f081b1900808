import Foundation
import GRDB
import VitrineCore

/// The store's tables and how older stores are brought up to date. Every change to the schema is a new
/// migration appended here, never an edit of an old one: a store made by any earlier Vitrine is migrated when it
/// is opened, and one made by a later Vitrine is refused.
enum StoreSchema {
    /// `PRAGMA application_id` of a Vitrine store (`VTRN`): tells a store from any other SQLite file.
    static let applicationID: Int32 = 0x5654_524E

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Version 1 (Vitrine 0.13): every object as the source gave it, keyed by its record identifier's
        // bytes, and the harvest state.
        migrator.registerMigration("v1-objects") { db in
            try db.execute(
                sql: """
                    CREATE TABLE object (
                        record_key BLOB NOT NULL PRIMARY KEY,
                        id TEXT NOT NULL,
                        title TEXT NOT NULL,
                        maker TEXT,
                        date TEXT,
                        image_url TEXT,
                        image_width INTEGER,
                        image_height INTEGER,
                        image_sizing TEXT,
                        object_url TEXT,
                        record_id TEXT,
                        datestamp TEXT
                    ) WITHOUT ROWID;
                    CREATE TABLE harvest (name TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL);
                    PRAGMA application_id = \(applicationID);
                    """)
        }
        // Version 2: each object's section key (its maker's normalised name; '' for no known maker), indexed,
        // so a display can read the collection section by section.
        migrator.registerMigration("v2-section-key") { db in
            try db.execute(sql: "ALTER TABLE object ADD COLUMN section_key TEXT NOT NULL DEFAULT ''")
            try setSectionKeys(db)
            try db.execute(sql: "CREATE INDEX object_by_section ON object(section_key)")
        }
        // Version 3: section keys in Unicode's composed form, so that a maker spelled with a
        // decomposed accent shares its section with the composed spelling.
        migrator.registerMigration("v3-composed-section-key") { db in
            try setSectionKeys(db)
        }
        // Version 4: the table clustered by section and catalog order (`order_key`, an object's `CatalogOrder.Key`
        // as bytes, then the record key), the record key unique beside it. Keyed by record alone, a section's rows
        // lie all over the file: reading the collection back a section at a time reads each page once per section,
        // and a section comes back in an order the Presenter must sort.
        migrator.registerMigration("v4-section-order") { db in
            try db.execute(
                sql: """
                    CREATE TABLE object_in_order (
                        section_key TEXT NOT NULL,
                        order_key BLOB NOT NULL,
                        record_key BLOB NOT NULL,
                        id TEXT NOT NULL,
                        title TEXT NOT NULL,
                        maker TEXT,
                        date TEXT,
                        image_url TEXT,
                        image_width INTEGER,
                        image_height INTEGER,
                        image_sizing TEXT,
                        object_url TEXT,
                        record_id TEXT,
                        datestamp TEXT,
                        PRIMARY KEY (section_key, order_key, record_key)
                    ) WITHOUT ROWID
                    """)
            // Each stored object's key is worked out from it, a row at a time (a million objects are not read at once).
            let placeholders = Array(repeating: "?", count: 14).joined(separator: ", ")
            let insert = try db.makeStatement(
                sql: "INSERT INTO object_in_order (\(ObjectRow.orderedColumns)) VALUES (\(placeholders))")
            let rows = try db.makeStatement(
                sql: "SELECT \(ObjectRow.objectColumns) FROM object")
            let cursor = try Row.fetchCursor(rows)
            while try cursor.next() != nil {
                try ObjectRow.bind(
                    ObjectRow.object(rows, details: false), sectionKey: ObjectRow.text(rows, 12) ?? "", to: insert,
                    details: false)
                try insert.execute()
            }
            try db.execute(
                sql: """
                    DROP TABLE object;
                    ALTER TABLE object_in_order RENAME TO object;
                    CREATE UNIQUE INDEX object_by_record ON object(record_key);
                    """)
        }
        // Version 5: each section's count of objects (and of pictures bundled with the source), kept with the
        // objects (`SectionCounts`): a run lists its sections without reading the whole table. A later migration
        // that changes objects must count them again.
        migrator.registerMigration("v5-section-counts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE section (
                        section_key TEXT NOT NULL PRIMARY KEY,
                        objects INTEGER NOT NULL,
                        bundled INTEGER NOT NULL
                    ) WITHOUT ROWID
                    """)
            try SectionCounts.recount(in: db)
        }
        // Version 6: each object's details (description, materials, rights…: `ObjectRow+Details`). The stored
        // objects were harvested without them, so the next run harvests the whole collection again.
        migrator.registerMigration("v6-object-details") { db in
            for column in [
                "description TEXT", "object_type TEXT", "materials TEXT", "dimensions TEXT", "credit_line TEXT",
                "place TEXT", "subjects TEXT", "year_begin INTEGER", "year_end INTEGER", "makers TEXT",
                "rights_url TEXT", "rights_label TEXT", "rights_open INTEGER", "rights_attribution TEXT",
                "alt_text TEXT", "sort_name TEXT",
            ] {
                try db.execute(sql: "ALTER TABLE object ADD COLUMN \(column)")
            }
            // A section files under its makers' sort name: read from the few rows that have one.
            try db.execute(
                sql: "CREATE INDEX object_by_sort_name ON object(section_key, sort_name) WHERE sort_name IS NOT NULL")
            try db.execute(sql: "DELETE FROM harvest WHERE name = 'harvested_at'")
        }
        // Version 7: what else each source says (`ObjectDetails.otherFacts`: department, provenance, style…),
        // which the stored objects were harvested without: the next run harvests the whole collection again.
        migrator.registerMigration("v7-other-facts") { db in
            try db.execute(sql: "ALTER TABLE object ADD COLUMN other_facts TEXT")
            try db.execute(sql: "DELETE FROM harvest WHERE name = 'harvested_at'")
        }
        // Version 8: objects go by the first year of their year range (`17th century` is 1600, `50 BC` -50), no
        // longer by the first three or four digits of their date; and the sources read fields of unexpected types
        // and placeholder years otherwise. Each row's order key is made again; the next run harvests everything.
        migrator.registerMigration("v8-order-by-year-range") { db in
            try db.execute(sql: "CREATE TEMP TABLE reordered (record_key BLOB PRIMARY KEY, order_key BLOB NOT NULL)")
            let insert = try db.makeStatement(sql: "INSERT INTO reordered VALUES (?, ?)")
            let rows = try db.makeStatement(sql: "SELECT \(ObjectRow.columns) FROM object")
            let cursor = try Row.fetchCursor(rows)
            while let row = try cursor.next() {
                let key: Data = row[0]
                try insert.execute(arguments: [key, Data(CatalogOrder.Key(ObjectRow.object(rows)).bytes)])
            }
            try db.execute(
                sql: """
                    UPDATE object SET order_key = (SELECT order_key FROM reordered WHERE record_key = object.record_key);
                    DROP TABLE reordered;
                    DELETE FROM harvest WHERE name = 'harvested_at';
                    """)
        }
        return migrator
    }

    /// The stored objects' index by record key, as version 4 made it: it keeps record keys unique. A full run makes
    /// it again after storing its objects.
    static let recordIndex = "CREATE UNIQUE INDEX object_by_record ON object(record_key)"

    /// Sets every object's section key from its maker.
    private static func setSectionKeys(_ db: Database) throws {
        let makers = try Row.fetchAll(db, sql: "SELECT DISTINCT maker FROM object WHERE maker IS NOT NULL")
        let update = try db.makeStatement(sql: "UPDATE object SET section_key = ? WHERE maker = ?")
        for row in makers {
            let maker: String = row[0]
            try update.execute(arguments: [ObjectRow.sectionKey(maker), maker])
        }
    }
}
