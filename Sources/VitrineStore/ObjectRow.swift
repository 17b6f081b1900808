import Foundation
import GRDB
import GRDBSQLite
import VitrineCore

/// How an `ArtObject` is written as a row of the `object` table, and read back.
enum ObjectRow {
    /// The columns, in the order `bind` binds them. `order_key` is the object's `CatalogOrder.Key` as bytes: the
    /// table is clustered by section, that key and the record key, so a section is read back in catalog order, from
    /// pages one after another. The details' columns follow (`ObjectRow+Details`).
    static let columns = orderedColumns + ", " + detailColumns
    /// The columns of stores from version 4 to 5: an object's own, its section key and its order key.
    static let orderedColumns = objectColumns + ", order_key"
    /// The columns of an object and its section key: the table of stores before version 4.
    static let objectColumns =
        "record_key, id, title, maker, date, image_url, image_width, image_height, image_sizing, object_url, "
        + "record_id, datestamp, section_key"
    /// `?, ?, …` for `columns`.
    static let placeholders = Array(repeating: "?", count: 14 + detailColumnCount).joined(separator: ", ")
    /// The columns that make an object what it is (all but the key and the section key, which follow from
    /// them): two rows that agree on these hold the same object.
    static let contentColumns =
        "id, title, maker, date, image_url, image_width, image_height, image_sizing, object_url, record_id, datestamp, "
        + detailColumns

    /// Binds an object's row to `statement`'s parameters, its section key given (see `SectionKeys`), and its
    /// place in the source when it is added to a run's collection (`runColumns`); then `statement.execute()`
    /// runs it. Bound through SQLite's C API, not GRDB's `StatementArguments` (a boxed value per column): this runs
    /// for every object a harvest adds. Without `details`, the columns of a store before version 6 only.
    static func bind(
        _ object: ArtObject, sectionKey: String, place: SectionIndex.Place? = nil, to statement: Statement,
        details: Bool = true
    ) throws {
        // Resets the statement, clears its parameters, and lets `execute()` run it with the ones bound below.
        statement.setUncheckedArguments(StatementArguments())
        let raw = statement.sqliteStatement
        var key = object.recordKey.text
        var code = key.withUTF8 { bytes in
            bytes.isEmpty
                ? sqlite3_bind_zeroblob(raw, 1, 0)
                : sqlite3_bind_blob(raw, 1, bytes.baseAddress, Int32(bytes.count), transient)
        }
        func bind(_ text: String?, at index: Int32) {
            guard code == SQLITE_OK else { return }
            guard let text else {
                code = sqlite3_bind_null(raw, index)
                return
            }
            // By byte count: a NUL inside the text is kept, not taken for its end.
            var bytes = text
            code = bytes.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(raw, index, "", 0, nil)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(raw, index, $0, Int32(bytes.count), transient)
                }
            }
        }
        func bind(_ integer: Int?, at index: Int32) {
            guard code == SQLITE_OK else { return }
            code = integer.map { sqlite3_bind_int64(raw, index, Int64($0)) } ?? sqlite3_bind_null(raw, index)
        }
        bind(object.id, at: 2)
        bind(object.title, at: 3)
        bind(object.maker, at: 4)
        bind(object.date, at: 5)
        bind(object.image?.url, at: 6)
        bind(object.image?.width, at: 7)
        bind(object.image?.height, at: 8)
        bind(object.image.map { sizing($0.sizing) }, at: 9)
        bind(object.objectURL, at: 10)
        bind(object.recordID, at: 11)
        bind(object.datestamp, at: 12)
        bind(sectionKey, at: 13)
        if code == SQLITE_OK {
            code = CatalogOrder.Key(object).bytes.withUnsafeBufferPointer { bytes in
                sqlite3_bind_blob(raw, 14, bytes.baseAddress, Int32(bytes.count), transient)
            }
        }
        let next: Int32 = details ? 15 + Int32(detailColumnCount) : 15
        if details { bindDetails(object.details, from: 15, text: bind, integer: bind) }
        if let place {
            bind(place.page, at: next)
            bind(place.position, at: next + 1)
            bind(0, at: next + 2)
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), sql: statement.sql)
        }
    }

    /// Binds a deleted record's row of a run's collection (`runColumns`): its key, its datestamp and place, and
    /// `deleted = 1`; it belongs to no section.
    static func bindDeletion(
        _ recordID: String, datestamp: String?, place: SectionIndex.Place, to statement: Statement
    ) throws {
        var empty = ArtObject(id: "", title: "", recordID: recordID, datestamp: datestamp)
        empty.recordID = recordID
        try bind(empty, sectionKey: "", place: place, to: statement)
        let code = sqlite3_bind_int64(statement.sqliteStatement, 17 + Int32(detailColumnCount), 1)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), sql: statement.sql)
        }
    }

    /// SQLite copies what is bound with this (`SQLITE_TRANSIENT`), so the Swift string may go at once.
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }

    /// The columns of a row of a run's collection: an object's, its place in the source, and whether it is a
    /// deleted record.
    static let runColumns = columns + ", page, position, deleted"

    /// Section keys by maker as the source spells it, each normalised once rather than once per row: normalising is
    /// costly, and a collection has far fewer makers than objects.
    /// Keyed by exact bytes, as the rows are: two spellings that differ only by normalisation keep their own keys.
    struct SectionKeys {
        private var keys: [ExactText: String] = [:]

        mutating func key(for maker: String?) -> String {
            guard let maker else { return "" }
            let spelling = ExactText(maker)
            if let key = keys[spelling] { return key }
            let key = ObjectRow.sectionKey(maker)
            keys[spelling] = key
            return key
        }
    }

    /// A record identifier's exact bytes: ids that differ only by Unicode normalisation stay apart.
    static func key(_ recordID: String) -> Data {
        Data(recordID.utf8)
    }

    /// The object on the row `statement` (a selection of `columns`) stands on, read through SQLite's C API, not
    /// GRDB's `Row` subscripts: this runs for every object read back. Without `details`, a selection of a store's
    /// columns before version 6.
    static func object(_ statement: Statement, details: Bool = true) -> ArtObject {
        let raw = statement.sqliteStatement
        func text(_ column: Int32) -> String? { ObjectRow.text(statement, column) }
        func integer(_ column: Int32) -> Int? {
            sqlite3_column_type(raw, column) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(raw, column))
        }
        var image: ImageReference?
        if let url = text(5) {
            let bytes = sqlite3_column_text(raw, 8)
            let sizing = sizing(
                from: UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(sqlite3_column_bytes(raw, 8))))
            image = ImageReference(url: url, width: integer(6), height: integer(7), sizing: sizing)
        }
        return ArtObject(
            id: text(1) ?? "", title: text(2) ?? "", maker: text(3), date: text(4), image: image, objectURL: text(9),
            recordID: text(10), datestamp: text(11),
            details: details ? Self.details(statement, from: 14) : ObjectDetails())
    }

    /// The text in column `column` (from 0) of the row `statement` stands on; `nil` for NULL.
    static func text(_ statement: Statement, _ column: Int32) -> String? {
        let raw = statement.sqliteStatement
        guard sqlite3_column_type(raw, column) != SQLITE_NULL else { return nil }
        guard let bytes = sqlite3_column_text(raw, column) else { return "" }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(raw, column))), as: UTF8.self)
    }

    /// Every object a selection of `columns` with one text parameter gives, in its order: the text bound by its byte
    /// count, so a NUL inside it is part of it (GRDB's arguments end a string at its first NUL).
    static func objects(_ statement: Statement, text: String, capacity: Int = 0) throws -> [ArtObject] {
        statement.setUncheckedArguments(StatementArguments())
        var bytes = text
        let code = bytes.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement.sqliteStatement, 1, "", 0, nil)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(statement.sqliteStatement, 1, $0, Int32(bytes.count), transient)
            }
        }
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), sql: statement.sql) }
        var objects: [ArtObject] = []
        objects.reserveCapacity(capacity)
        while true {
            let step = sqlite3_step(statement.sqliteStatement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: step), sql: statement.sql)
            }
            objects.append(object(statement))
        }
        sqlite3_reset(statement.sqliteStatement)
        return objects
    }

    /// The rows of a query of a section key and two counts, the key read by its byte count (GRDB's strings end at
    /// their first NUL).
    static func keysAndCounts(_ db: Database, sql: String) throws -> [(key: String, objects: Int, bundled: Int)] {
        let statement = try db.makeStatement(sql: sql)
        let raw = statement.sqliteStatement
        var rows: [(key: String, objects: Int, bundled: Int)] = []
        let cursor = try Row.fetchCursor(statement)
        while try cursor.next() != nil {
            rows.append(
                (text(statement, 0) ?? "", Int(sqlite3_column_int64(raw, 1)), Int(sqlite3_column_int64(raw, 2))))
        }
        return rows
    }

    /// The section an object belongs to: its maker's section name (`MakerName.sectionName`), '' for no known maker.
    static func sectionKey(_ maker: String?) -> String {
        MakerName.sectionName(maker) ?? ""
    }

    /// Field separator in `image_sizing` (the unit separator: never in a URL Vitrine keeps).
    private static let separator: Character = "\u{1F}"

    /// `google`, `iiif␟{service}␟{w,w,…}`, `imgix`, `fixed␟{small URL}␟{small width}`.
    static func sizing(_ sizing: ImageReference.Sizing) -> String {
        switch sizing {
        case .googleImageHost:
            return "google"
        case .iiif(let service, let widths):
            return ["iiif", service, widths.map(String.init).joined(separator: ",")].joined(
                separator: String(separator))
        case .imgix:
            return "imgix"
        case .bundled:
            return "bundled"
        case .fixed(let smallURL, let smallWidth):
            return ["fixed", smallURL ?? "", smallWidth.map(String.init) ?? ""].joined(separator: String(separator))
        }
    }

    /// The sizing `sizing(_:)` wrote, read from its bytes rather than by splitting a `String`: this runs for every
    /// row read back.
    static func sizing(from bytes: UnsafeBufferPointer<UInt8>) -> ImageReference.Sizing {
        let unit = UInt8(0x1F)
        var fields: [UnsafeBufferPointer<UInt8>] = []
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == unit {
            fields.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            start = index + 1
            if fields.count > 3 { break }
        }
        func text(_ field: UnsafeBufferPointer<UInt8>) -> String { String(decoding: field, as: UTF8.self) }
        // A number is a small string, made without an allocation, and `Int` reads it as it reads any text.
        func number(_ field: UnsafeBufferPointer<UInt8>) -> Int? { Int(text(field)) }
        func named(_ name: StaticString) -> Bool {
            fields[0].elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        switch fields.count {
        case 1 where named("google"):
            return .googleImageHost
        case 1 where named("imgix"):
            return .imgix
        case 1 where named("bundled"):
            return .bundled
        case 3 where named("iiif"):
            let widths = fields[2].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true).compactMap {
                $0.withUnsafeBufferPointer(number)
            }
            return .iiif(service: text(fields[1]), cachedWidths: widths)
        case 3 where named("fixed"):
            return .fixed(smallURL: fields[1].isEmpty ? nil : text(fields[1]), smallWidth: number(fields[2]))
        default:
            return .fixed(smallURL: nil, smallWidth: nil)
        }
    }
}
