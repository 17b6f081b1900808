import GRDB

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
        return migrator
    }

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
