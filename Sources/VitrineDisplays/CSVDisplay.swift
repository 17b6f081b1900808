import VitrineCore
import VitrineOutput

/// The spreadsheet: `collection.csv`, one row per object in section order, RFC 4180, UTF-8.
package struct CSVDisplay: CatalogFileDisplay {
    /// The columns other tools rely on, in this order: the first eight, stable, then the rich record's.
    /// Lists are joined with `; `; `open_access` is `true`, `false`, or empty where the source gives no rights;
    /// `makers` is every maker with role and life dates, `other_facts` what else the source says (`Label: value`).
    package static let header = [
        "object_id", "title", "artist", "date", "thumbnail_url", "image_url", "object_url", "source",
        "record_id", "datestamp", "year_begin", "year_end", "object_type", "materials", "dimensions", "description",
        "credit_line", "place", "subjects", "rights_url", "rights_label", "open_access", "maker_sort_name",
        "makers", "attribution", "alt_text", "other_facts",
    ]

    package var format: CatalogFormat { .csv }

    package init() {}

    package func start(
        _ outline: CatalogViewModel, in folder: OutputFolder
    ) throws(ExportError) -> any CatalogPartWriter {
        var header: [UInt8] = []
        CSVCell.appendRow(Self.header, to: &header)
        let source = outline.sourceName
        return try RowFileWriter(folder: folder, path: "collection.csv", head: header) { object, bytes in
            Self.appendRow(object, source: source, to: &bytes)
        }
    }

    /// An object's row in `header`'s columns, ended by CRLF. Its fields are appended one by one: an array of the
    /// strings would cost an allocation and a reference count a field, a row.
    package static func appendRow(
        _ object: UnsafePointer<CatalogViewModel.DisplayedObject>, source: String, to bytes: inout [UInt8]
    ) {
        func field(_ value: String, then end: UInt8) {
            CSVCell.append(value, to: &bytes)
            bytes.append(end)
        }
        let comma = UInt8(ascii: ",")
        func number(_ value: Int?) {
            if let value { bytes.append(contentsOf: String(value).utf8) }
            bytes.append(comma)
        }
        field(object.pointee.id, then: comma)
        field(object.pointee.title, then: comma)
        field(object.pointee.maker, then: comma)
        field(object.pointee.date, then: comma)
        field(object.pointee.thumbnailURL, then: comma)
        field(object.pointee.imageURL, then: comma)
        field(object.pointee.objectURL, then: comma)
        field(source, then: comma)
        field(object.pointee.details.recordID, then: comma)
        field(object.pointee.details.datestamp, then: comma)
        // Years are numbers, written as they are: a spreadsheet reads `-500` as a number, not a formula to defuse.
        number(object.pointee.details.yearBegin)
        number(object.pointee.details.yearEnd)
        field(object.pointee.details.objectType, then: comma)
        field(object.pointee.details.materials.joined(separator: "; "), then: comma)
        field(object.pointee.details.dimensions, then: comma)
        field(object.pointee.details.description, then: comma)
        field(object.pointee.details.creditLine, then: comma)
        field(object.pointee.details.place, then: comma)
        field(object.pointee.details.subjects.joined(separator: "; "), then: comma)
        field(object.pointee.details.rightsURL, then: comma)
        field(object.pointee.details.rightsLabel, then: comma)
        field(object.pointee.details.isOpenAccess.map { $0 ? "true" : "false" } ?? "", then: comma)
        field(object.pointee.details.makerSortName, then: comma)
        field(object.pointee.details.makersLine, then: comma)
        field(object.pointee.details.attribution, then: comma)
        field(object.pointee.details.altText, then: comma)
        field(object.pointee.details.otherFactsLine, then: 0x0D)
        bytes.append(0x0A)
    }
}
