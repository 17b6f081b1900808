import Foundation
import GRDB
import VitrineCore

/// How an `ArtObject` is written as a row of the `object` table, and read back.
enum ObjectRow {
    /// The columns, in the order `arguments` gives them.
    static let columns =
        "record_key, id, title, maker, date, image_url, image_width, image_height, image_sizing, object_url, "
        + "record_id, datestamp, section_key"
    /// `?, ?, …` for `columns`.
    static let placeholders = Array(repeating: "?", count: 13).joined(separator: ", ")
    /// The columns that make an object what it is (all but the key and the section key, which follow from
    /// them): two rows that agree on these hold the same object.
    static let contentColumns =
        "id, title, maker, date, image_url, image_width, image_height, image_sizing, object_url, record_id, datestamp"

    /// The statement arguments of an object's row, its section key given (see `SectionKeys`), and of its place in
    /// the source when it is staged in a run's collection (`stagedColumns`).
    static func arguments(
        _ object: ArtObject, sectionKey: String, place: SectionIndex.Place? = nil
    ) -> StatementArguments {
        var values: [(any DatabaseValueConvertible)?] = [
            key(object.recordKey.text), object.id, object.title, object.maker, object.date, object.image?.url,
            object.image?.width,
            object.image?.height, object.image.map { sizing($0.sizing) }, object.objectURL, object.recordID,
            object.datestamp, sectionKey,
        ]
        if let place { values += [place.page, place.position] }
        return StatementArguments(values)
    }

    /// The columns of a row of a run's collection: an object's, and its place in the source.
    static let stagedColumns = columns + ", page, position"

    /// Section keys by maker as the source spells it, each normalised once: normalising every row's maker was a
    /// quarter of the time a harvest took to store (perf, 300,000 objects), and a collection has far fewer makers
    /// than objects.
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

    /// An object from a row selected with `columns`.
    static func object(_ row: Row) -> ArtObject {
        var image: ImageReference?
        if let url: String = row[5] {
            image = ImageReference(
                url: url, width: row[6], height: row[7], sizing: sizing(from: row[8] as String? ?? ""))
        }
        return ArtObject(
            id: row[1], title: row[2], maker: row[3], date: row[4], image: image, objectURL: row[9],
            recordID: row[10], datestamp: row[11])
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

    static func sizing(from text: String) -> ImageReference.Sizing {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "google":
            return .googleImageHost
        case "iiif" where parts.count == 3:
            return .iiif(service: parts[1], cachedWidths: parts[2].split(separator: ",").compactMap { Int($0) })
        case "imgix":
            return .imgix
        case "bundled":
            return .bundled
        case "fixed" where parts.count == 3:
            return .fixed(smallURL: parts[1].isEmpty ? nil : parts[1], smallWidth: Int(parts[2]))
        default:
            return .fixed(smallURL: nil, smallWidth: nil)
        }
    }
}
