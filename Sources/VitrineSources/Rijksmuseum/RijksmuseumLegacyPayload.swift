import Foundation
import VitrineCore

/// The JSON of the Rijksmuseum collection API, as far as Vitrine reads it.
enum RijksmuseumLegacyPayload {
    struct List: Decodable {
        /// Total results across all pages (not capped at the 10 000 window).
        var count: FlexibleInt?
        var artObjects: [Lenient<Record>]?
    }

    struct Record: Decodable {
        // Each read whatever its type (a number as its digits), or dropped alone: the record is kept.
        var objectNumber: FlexibleText?
        var title: FlexibleText?
        var longTitle: FlexibleText?
        var principalOrFirstMaker: FlexibleText?
        var showImage: Tolerant<Bool>?
        var webImage: Tolerant<Image>?
        var headerImage: Tolerant<Image>?
        var links: Tolerant<Links>?
        /// The detail shape's fields (`/collection/{objectNumber}`, mirrors and recorded data), read where present
        /// (`RijksmuseumLegacyPayload+Details.swift`); each dropped, not fatal, when it comes in another type.
        var description: Tolerant<String>?
        var plaqueDescriptionEnglish: Tolerant<String>?
        var plaqueDescriptionDutch: Tolerant<String>?
        var label: Tolerant<Label>?
        var objectTypes: TolerantList<String>?
        var materials: TolerantList<String>?
        var techniques: TolerantList<String>?
        var physicalMedium: Tolerant<String>?
        var dimensions: TolerantList<Dimension>?
        var subTitle: Tolerant<String>?
        var acquisition: Tolerant<Acquisition>?
        var productionPlaces: TolerantList<String>?
        var principalMakers: TolerantList<Maker>?
        var dating: Tolerant<Dating>?
        var copyrightHolder: Tolerant<String>?
        var classification: Tolerant<Classification>?

        struct Image: Decodable, Sendable {
            var url: FlexibleText?
            var width: FlexibleInt?
            var height: FlexibleInt?
        }

        struct Links: Decodable, Sendable {
            var web: FlexibleText?
        }

        /// The common object: image from `webImage`, else the `headerImage` banner, else none.
        func artObject(culture: String) -> RecordOutcome {
            let id = (objectNumber?.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !id.isEmpty else { return .skipped(reason: "no objectNumber") }
            let maker = principalOrFirstMaker?.text
            // The detail shape's own date text where it gives one, else the end of the list shape's `longTitle`.
            let date =
                DetailText.line(dating?.value?.presentingDate?.value)
                ?? Self.date(fromLongTitle: longTitle?.text, title: title?.text, maker: maker)
            return .object(
                ArtObject(
                    id: id,
                    title: title?.text ?? longTitle?.text ?? "",
                    maker: maker,
                    date: date,
                    image: image,
                    objectURL: links?.value?.web?.text,
                    details: details(maker: maker, date: date, culture: culture)
                )
            )
        }

        private var image: ImageReference? {
            if showImage?.value != false, let web = webImage?.value, let url = web.url?.text, !url.isEmpty {
                return ImageReference(
                    url: url, width: web.width?.value, height: web.height?.value, sizing: .googleImageHost)
            }
            if let header = headerImage?.value, let url = header.url?.text, !url.isEmpty {
                return ImageReference(
                    url: url, width: header.width?.value, height: header.height?.value, sizing: .googleImageHost)
            }
            return nil
        }

        /// The list endpoint has no date field; `longTitle` ends with it: `Zelfportret, Vincent van Gogh, 1887`.
        static func date(fromLongTitle longTitle: String?, title: String?, maker: String?) -> String? {
            guard let longTitle else { return nil }
            var rest = Substring(longTitle)
            if let title, !title.isEmpty, rest.hasPrefix(title + ", ") { rest = rest.dropFirst(title.count + 2) }
            if let maker, !maker.isEmpty, rest.hasPrefix(maker + ", ") { rest = rest.dropFirst(maker.count + 2) }
            let candidate =
                rest.contains(",") ? rest.split(separator: ",").last.map(String.init) ?? "" : String(rest)
            let date = candidate.trimmingCharacters(in: .whitespaces)
            return date.contains(where: \.isNumber) ? date : nil
        }
    }
}
