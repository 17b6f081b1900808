import GRDB
import GRDBSQLite
import VitrineCore

/// How an object's details (`ObjectDetails`) are kept: a column each, after the object's own columns. Lists are
/// their items joined by the unit separator; each maker is its four fields, and each other fact its label and
/// value, joined by the record separator. Neither
/// separator is kept inside a stored text (each becomes a space), so every list reads back as it was written.
extension ObjectRow {
    /// The detail columns, in the order `bindDetails` binds them.
    static let detailColumns =
        "description, object_type, materials, dimensions, credit_line, place, subjects, year_begin, year_end, "
        + "makers, rights_url, rights_label, rights_open, rights_attribution, alt_text, sort_name, other_facts"
    static let detailColumnCount = 17

    private static let unit: Character = "\u{1F}"
    private static let record: Character = "\u{1E}"
    private static let unitByte = UInt8(0x1F)
    private static let recordByte = UInt8(0x1E)

    /// Binds `details` to parameters `first`, `first + 1`, … with `bind`, as `bind(_:sectionKey:…)` binds the rest.
    static func bindDetails(
        _ details: ObjectDetails, from first: Int32, text: (String?, Int32) -> Void, integer: (Int?, Int32) -> Void
    ) {
        text(details.description, first)
        text(details.objectType, first + 1)
        text(list(details.materials), first + 2)
        text(details.dimensions, first + 3)
        text(details.creditLine, first + 4)
        text(details.place, first + 5)
        text(list(details.subjects), first + 6)
        integer(details.yearBegin, first + 7)
        integer(details.yearEnd, first + 8)
        text(makers(details.makers), first + 9)
        text(details.rights?.url, first + 10)
        text(details.rights?.label, first + 11)
        integer(details.rights.map { $0.isOpen ? 1 : 0 }, first + 12)
        text(details.rights.flatMap(credit), first + 13)
        text(details.altText, first + 14)
        // The first maker's sort name, on its own: a section files under it (`sortNames`).
        text(details.makers.first?.sortName, first + 15)
        text(otherFacts(details.otherFacts), first + 16)
    }

    /// The details on the row `statement` stands on, from column `first` (as `bindDetails` bound them).
    static func details(_ statement: Statement, from first: Int32) -> ObjectDetails {
        let raw = statement.sqliteStatement
        func text(_ column: Int32) -> String? { ObjectRow.text(statement, column) }
        func integer(_ column: Int32) -> Int? {
            sqlite3_column_type(raw, column) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(raw, column))
        }
        // Most objects of most sources have no details: one look at the columns' types tells.
        guard
            (first..<(first + Int32(detailColumnCount))).contains(where: { sqlite3_column_type(raw, $0) != SQLITE_NULL }
            )
        else { return ObjectDetails() }
        var rights: Rights?
        if let label = text(first + 11) {
            let (attribution, links) = credit(text(first + 13))
            rights = Rights(
                url: text(first + 10), label: label, isOpen: integer(first + 12) == 1, attribution: attribution,
                links: links)
        }
        return ObjectDetails(
            description: text(first), objectType: text(first + 1), materials: items(text(first + 2)),
            dimensions: text(first + 3), creditLine: text(first + 4), place: text(first + 5),
            subjects: items(text(first + 6)), yearBegin: integer(first + 7), yearEnd: integer(first + 8),
            makers: makers(text(first + 9)), rights: rights, altText: text(first + 14),
            otherFacts: otherFacts(text(first + 16)))
    }

    /// A text as it is stored inside a list: without the separators.
    private static func item(_ text: String) -> String {
        text.contains(where: { $0 == unit || $0 == record })
            ? String(text.map { $0 == unit || $0 == record ? " " : $0 }) : text
    }

    private static func list(_ items: [String]) -> String? {
        items.isEmpty ? nil : items.map(item).joined(separator: String(unit))
    }

    private static func items(_ column: String?) -> [String] {
        column.map { pieces(Substring($0), at: unitByte).map(String.init) } ?? []
    }

    /// `text` cut at each `separator` byte: a control character is a character of its own, so no cut falls
    /// inside one, and the bytes are found without the grapheme breaking a `Character` split needs.
    private static func pieces(_ text: Substring, at separator: UInt8, maxSplits: Int = .max) -> [Substring] {
        text.utf8.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: false).map {
            Substring($0)
        }
    }

    private static func makers(_ makers: [ObjectDetails.Maker]) -> String? {
        makers.isEmpty
            ? nil
            : makers.map { maker in
                [maker.name, maker.role ?? "", maker.lifeDates ?? "", maker.sortName ?? ""].map(item)
                    .joined(separator: String(record))
            }.joined(separator: String(unit))
    }

    private static func makers(_ column: String?) -> [ObjectDetails.Maker] {
        guard let column else { return [] }
        return pieces(Substring(column), at: unitByte).map { text in
            let fields = pieces(text, at: recordByte)
            func field(_ index: Int) -> String? {
                index < fields.count && !fields[index].isEmpty ? String(fields[index]) : nil
            }
            return ObjectDetails.Maker(name: field(0) ?? "", role: field(1), lifeDates: field(2), sortName: field(3))
        }
    }

    private static func otherFacts(_ facts: [ObjectDetails.Fact]) -> String? {
        facts.isEmpty ? nil : pairs(facts.map { ($0.label, $0.value) })
    }

    private static func otherFacts(_ column: String?) -> [ObjectDetails.Fact] {
        pairs(column).map { ObjectDetails.Fact(label: $0, value: $1) }
    }

    /// The credit, then each of its links: text and address (a credit stored without links reads back as itself).
    private static func credit(_ rights: Rights) -> String? {
        rights.attribution.map { attribution in
            ([item(attribution)] + (pairs(rights.links.map { ($0.text, $0.url) }).map { [$0] } ?? []))
                .joined(separator: String(unit))
        }
    }

    private static func credit(_ column: String?) -> (String?, [Rights.Link]) {
        guard let column else { return (nil, []) }
        let parts = pieces(Substring(column), at: unitByte, maxSplits: 1)
        let links = parts.count > 1 ? pairs(String(parts[1])).map { Rights.Link(text: $0, url: $1) } : []
        return (String(parts[0]), links)
    }

    /// Labelled values: each label and its value joined by the record separator, the pairs by the unit separator.
    private static func pairs(_ pairs: [(String, String)]) -> String? {
        pairs.isEmpty ? nil : pairs.map { item($0) + String(record) + item($1) }.joined(separator: String(unit))
    }

    private static func pairs(_ column: String?) -> [(String, String)] {
        guard let column else { return [] }
        return pieces(Substring(column), at: unitByte).map { text in
            let fields = pieces(text, at: recordByte, maxSplits: 1)
            return (String(fields[0]), fields.count > 1 ? String(fields[1]) : "")
        }
    }
}
