import Foundation
import GRDB

/// How many objects each stored section has, and how many of them have pictures bundled with the source: the
/// `section` table, changed in the transaction that stores a run's objects. A run lists its sections from it
/// instead of reading every object, a pass that would come before anything is rendered. An incremental run changes
/// only the counts of the sections its records leave and join.
enum SectionCounts {
    /// An object whose pictures are bundled with the source (the demo's), as an SQL condition.
    static let bundledPictures = "image_sizing = 'bundled'"

    /// Changes the counts by an incremental run's changes, before they are written: the stored rows its new
    /// records replace and those it deleted leave their sections, and its rows join theirs (a record
    /// harvested unchanged leaves and joins the same one; a deleted record only leaves).
    static func apply(changesIn db: Database) throws {
        let leaving =
            "SELECT section_key, -count(*) AS objects, -ifnull(sum(\(bundledPictures)), 0) AS bundled FROM object "
            + "WHERE record_key IN (SELECT record_key FROM temp.run) "
            + "GROUP BY section_key"
        let joining =
            "SELECT section_key, count(*), ifnull(sum(\(bundledPictures)), 0) FROM temp.run WHERE deleted = 0 "
            + "GROUP BY section_key"
        try db.execute(
            sql: "INSERT INTO section (section_key, objects, bundled) SELECT section_key, sum(objects), sum(bundled) "
                + "FROM (\(leaving) UNION ALL \(joining)) GROUP BY section_key "
                + "HAVING sum(objects) != 0 OR sum(bundled) != 0 ON CONFLICT (section_key) "
                + "DO UPDATE SET objects = objects + excluded.objects, bundled = bundled + excluded.bundled")
        try db.execute(sql: "DELETE FROM section WHERE objects <= 0")
    }

    /// Counts every stored object anew (a full run, and the migration that made the table).
    static func recount(in db: Database) throws {
        try db.execute(sql: "DELETE FROM section")
        try db.execute(
            sql: "INSERT INTO section (section_key, objects, bundled) SELECT section_key, count(*), "
                + "ifnull(sum(\(bundledPictures)), 0) FROM object GROUP BY section_key")
    }

    /// The stored sections: key, objects and bundled pictures, by key.
    static func stored(in db: Database) throws -> [(key: String, objects: Int, bundled: Int)] {
        try ObjectRow.keysAndCounts(db, sql: "SELECT section_key, objects, bundled FROM section ORDER BY section_key")
    }
}
