import Foundation
import VitrineCore

/// The demo: the legacy Rijksmuseum source reading the bundled pages, whose image URLs (on a host that does not
/// exist) are replaced by the bundled pictures, written into the output beside the catalogs so that the demo
/// gallery shows pictures offline.
struct DemoSource: CollectionSource {
    let pages: RijksmuseumLegacySource

    var descriptor: SourceDescriptor { pages.descriptor }
    var firstPage: PageCursor { pages.firstPage }

    func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        try pages.request(for: page)
    }

    func failure(for response: SourceResponse) -> HarvestFailure? {
        pages.failure(for: response)
    }

    func peekNext(_ response: SourceResponse) -> PageCursor? {
        pages.peekNext(response)
    }

    func decode(_ response: SourceResponse, page: PageCursor) async throws(HarvestFailure) -> SourcePage {
        var decoded = try pages.decode(response, page: page)
        let extras = try DemoFields.byNumber(response)
        decoded.records = decoded.records.map { record in
            guard case .object(var object) = record else { return record }
            let entry = extras[object.id]
            if let statement = entry?.vitrineDemoRights {
                // The statement says what the holder's notice does not: keep the holder as a fact.
                object.details.addFact("Copyright holder", object.details.rights?.label)
                object.details.rights = Rights(statement: statement)
            }
            object.details.altText = DetailText.line(entry?.vitrineDemoAltText)
            object.datestamp = DetailText.line(entry?.vitrineDemoModified)
            guard let picture = DemoPictures.picture(forImage: object.image?.url) else { return .object(object) }
            object.image = ImageReference(
                url: picture.path, width: picture.width, height: picture.height, sizing: .bundled)
            return .object(object)
        }
        return decoded
    }

    func bundledFile(at path: String) -> [UInt8]? {
        DemoPictures.file(at: path)
    }
}

/// What the legacy API has no field for, which the demo pages carry in fields of their own so that the demo shows
/// every field a catalog can: read here, never by the legacy source.
enum DemoFields {
    private struct Page: Decodable {
        var artObjects: [Entry]?
    }

    struct Entry: Decodable {
        var objectNumber: String?
        /// A Creative Commons or rightsstatements.org URI.
        var vitrineDemoRights: String?
        var vitrineDemoAltText: String?
        /// When the record last changed, in UTC.
        var vitrineDemoModified: String?
    }

    /// Each object's fields on the page, by object number.
    static func byNumber(_ response: SourceResponse) throws(HarvestFailure) -> [String: Entry] {
        let page = try response.decodeJSON(Page.self)
        var entries: [String: Entry] = [:]
        for entry in page.artObjects ?? [] {
            guard let number = entry.objectNumber else { continue }
            entries[number] = entry
        }
        return entries
    }
}

/// The demo's pictures, one small SVG per object with an image, written by `Scripts/make-demo-images.py` into
/// `Demo/images/demo-images.tsv` (`DEMO-0001<TAB><svg …>` a line) and embedded in the binary.
enum DemoPictures {
    struct Picture {
        /// Where the export writes it, relative to the output folder: `images/demo-0001.svg`.
        var path: String
        var width: Int
        var height: Int
        var bytes: ArraySlice<UInt8>
    }

    /// The pictures by object number, read once.
    static let byNumber: [String: Picture] = {
        var pictures: [String: Picture] = [:]
        let table = PackageResources.demo_images_tsv
        for line in table.split(separator: UInt8(ascii: "\n")) {
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let number = String(decoding: line[..<tab], as: UTF8.self)
            let svg = line[(tab + 1)...]
            let head = String(decoding: svg.prefix(200), as: UTF8.self)
            guard let width = attribute("width", in: head), let height = attribute("height", in: head) else { continue }
            pictures[number] = Picture(
                path: "images/\(number.lowercased()).svg", width: width, height: height, bytes: svg)
        }
        return pictures
    }()

    /// Paths to pictures.
    static let byPath: [String: Picture] = Dictionary(
        uniqueKeysWithValues: byNumber.values.map { ($0.path, $0) })

    /// The picture for a demo image URL (`https://images.vitrine-demo.invalid/demo-0001=s0`).
    static func picture(forImage url: String?) -> Picture? {
        guard let url, let name = url.split(separator: "/").last else { return nil }
        let stem = name.split(separator: "=").first.map(String.init) ?? String(name)
        return byNumber[stem.uppercased()]
    }

    static func file(at path: String) -> [UInt8]? {
        byPath[path].map { Array($0.bytes) }
    }

    /// The number in ` name="480"` in the start of an SVG.
    private static func attribute(_ name: String, in head: String) -> Int? {
        guard let start = head.range(of: " \(name)=\"") else { return nil }
        return Int(head[start.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
}
