import VitrineCore
import VitrineOutput

/// The data for scripts: `collection.jsonl`, one JSON object per line for each object, in section order, UTF-8.
/// Every field is there, in the same order on every line: a field the object lacks is `null` (a list `[]`), years
/// are numbers, lists arrays, rights an object (`null` when the source gives none), other facts an object keyed by
/// label (`{}` for none).
package struct JSONLinesDisplay: CatalogFileDisplay {
    package var format: CatalogFormat { .jsonl }

    package init() {}

    package func start(
        _ outline: CatalogViewModel, in folder: OutputFolder
    ) throws(ExportError) -> any CatalogPartWriter {
        let source = outline.sourceName
        return try RowFileWriter(folder: folder, path: "collection.jsonl", head: []) { object, bytes in
            Self.appendLine(object, source: source, to: &bytes)
        }
    }

    /// An object's line, ended by a line feed.
    static func appendLine(
        _ object: UnsafePointer<CatalogViewModel.DisplayedObject>, source: String, to bytes: inout [UInt8]
    ) {
        var first = true
        func field(_ key: StaticString, _ write: (inout [UInt8]) -> Void) {
            bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            JSONText.key(key, to: &bytes)
            write(&bytes)
        }
        func text(_ key: StaticString, _ value: String) { field(key) { JSONText.append(orNull: value, to: &$0) } }
        let details = object.pointee.details
        text("object_id", object.pointee.id)
        text("record_id", details.recordID)
        text("title", object.pointee.title)
        text("artist", object.pointee.maker)
        text("maker_sort_name", details.makerSortName)
        text("date", object.pointee.date)
        field("year_begin") { JSONText.append(details.yearBegin, to: &$0) }
        field("year_end") { JSONText.append(details.yearEnd, to: &$0) }
        text("object_type", details.objectType)
        field("materials") { JSONText.append(details.materials, to: &$0) }
        text("dimensions", details.dimensions)
        text("description", details.description)
        text("credit_line", details.creditLine)
        text("place", details.place)
        field("subjects") { JSONText.append(details.subjects, to: &$0) }
        field("makers") { bytes in
            bytes.append(UInt8(ascii: "["))
            for (index, maker) in details.makers.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: "{\"name\":".utf8)
                JSONText.append(maker.name, to: &bytes)
                bytes.append(contentsOf: ",\"role\":".utf8)
                JSONText.append(orNull: maker.role, to: &bytes)
                bytes.append(contentsOf: ",\"life_dates\":".utf8)
                JSONText.append(orNull: maker.lifeDates, to: &bytes)
                bytes.append(contentsOf: ",\"sort_name\":".utf8)
                JSONText.append(orNull: maker.sortName, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        field("rights") { bytes in
            guard let isOpen = details.isOpenAccess else { return bytes.append(contentsOf: "null".utf8) }
            bytes.append(contentsOf: "{\"url\":".utf8)
            JSONText.append(orNull: details.rightsURL, to: &bytes)
            bytes.append(contentsOf: ",\"label\":".utf8)
            JSONText.append(orNull: details.rightsLabel, to: &bytes)
            bytes.append(contentsOf: ",\"open_access\":\(isOpen)".utf8)
            bytes.append(contentsOf: ",\"attribution\":".utf8)
            JSONText.append(orNull: details.attribution, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        text("alt_text", details.altText)
        field("other_facts") { bytes in
            bytes.append(UInt8(ascii: "{"))
            for (index, fact) in details.otherFacts.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.append(fact.label, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                JSONText.append(fact.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        text("thumbnail_url", object.pointee.thumbnailURL)
        text("image_url", object.pointee.imageURL)
        text("object_url", object.pointee.objectURL)
        text("datestamp", details.datestamp)
        text("source", source)
        bytes.append(contentsOf: "}\n".utf8)
    }
}
