import Foundation

/// A collection in the Rijksmuseum collection API's shape: either fixed page files (recorded or fixture
/// pages, served whatever `ps` asks) or generated objects, sliced by `p` and `ps`.
package enum LegacyCollection: Sendable {
    /// Page files, each a whole `{"count":…,"artObjects":[…]}` body, in order.
    case pages([Data])
    /// `count` generated objects sorted by maker, with the API's nulls and non-Latin makers mixed in.
    case generated(count: Int)

    /// The body for page `index` (counting from 0) of `pageSize` objects.
    func body(page index: Int, pageSize: Int, apiBase: String) -> Data {
        switch self {
        case .pages(let pages):
            if index < pages.count { return pages[index] }
            let count = pages.first.flatMap(Self.count(in:)) ?? 0
            return Data(
                #"{"elapsedMilliseconds":0,"count":\#(count),"countFacets":{},"artObjects":[],"facets":[]}"#.utf8)
        case .generated(let count):
            let start = min(index * pageSize, count)
            let end = min(start + pageSize, count)
            let objects = (start..<end).map { Self.generatedObject($0, apiBase: apiBase) }
            let body: [String: Any] = [
                "elapsedMilliseconds": 0, "count": count, "countFacets": ["hasimage": count], "artObjects": objects,
                "facets": [],
            ]
            return (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        }
    }

    private static func count(in page: Data) -> Int? {
        (try? JSONSerialization.jsonObject(with: page) as? [String: Any])?["count"] as? Int
    }

    /// Makers of generated objects, in the API's artist order.
    package static let generatedMakers = [
        "Hendrick Avercamp", "Ferdinand Bol", "Gerard ter Borch", "Aelbert Cuyp", "Simon Fokke", "Frans Hals",
        "Jozef Israëls", "Judith Leyster", "Rembrandt van Rijn", "Jan Steen", "Johannes Vermeer", "Émile Bernard",
        "葛飾北斎", "Илья Репин", "anoniem",
    ]

    /// Object `n` of a generated collection: `GEN-000001`…, makers in runs, every seventh without an image.
    package static func generatedObject(_ number: Int, apiBase: String) -> [String: Any] {
        let id = String(format: "GEN-%06d", number + 1)
        let maker = generatedMakers[(number / 7) % generatedMakers.count]
        let year = 1600 + number % 300
        let hasImage = number % 7 != 3
        let web: Any =
            hasImage
            ? [
                "guid": "g\(number)", "offsetPercentageX": 0, "offsetPercentageY": 0, "width": 3000, "height": 2000,
                "url": "https://lh3.googleusercontent.com/gen\(number)=s0",
            ] as [String: Any] : NSNull()
        return [
            "links": [
                "self": "\(apiBase)/en/collection/\(id)",
                "web": "https://www.rijksmuseum.nl/en/collection/\(id)",
            ],
            "id": "en-\(id)", "objectNumber": id, "title": "Object \(number + 1)", "hasImage": hasImage,
            "principalOrFirstMaker": maker, "longTitle": "Object \(number + 1), \(maker), \(year)",
            "showImage": hasImage,
            "permitDownload": hasImage, "webImage": web,
            "headerImage": [
                "guid": NSNull(), "offsetPercentageX": 0, "offsetPercentageY": 0, "width": 0, "height": 0,
                "url": NSNull(),
            ] as [String: Any],
            "productionPlaces": [],
        ]
    }
}
