import Foundation
import VitrineCore

/// The JSON of the Art Institute of Chicago's API, as far as Vitrine reads it.
enum ArtInstitutePayload {
    /// The fields asked for with `fields=`: nothing else comes back.
    static let fields = [
        "id", "title", "artist_title", "artist_display", "date_display", "image_id", "thumbnail", "description",
        "short_description", "medium_display", "dimensions", "credit_line", "place_of_origin", "artwork_type_title",
        "classification_title", "is_public_domain", "copyright_notice", "date_start", "date_end", "subject_titles",
        "style_title", "term_titles", "category_titles", "updated_at",
    ]

    struct List: Decodable {
        var pagination: Pagination?
        var data: [Lenient<Artwork>]?
        var config: Config?
    }

    struct Pagination: Decodable {
        var total: FlexibleInt?
        var limit: FlexibleInt?
        var total_pages: FlexibleInt?
    }

    struct Config: Decodable {
        var iiif_url: String?
        var website_url: String?
    }

    struct Artwork: Decodable {
        var id: FlexibleID
        // Each read whatever its type, or dropped alone: one wrong-typed field does not lose the record.
        var title: FlexibleText?
        var artist_title: FlexibleText?
        var artist_display: FlexibleText?
        var date_display: FlexibleText?
        var image_id: FlexibleText?
        var thumbnail: Tolerant<Thumbnail>?
        // The details: each dropped, not fatal, when it comes in an unexpected type.
        var description: Tolerant<String>?
        var short_description: Tolerant<String>?
        var medium_display: Tolerant<String>?
        var dimensions: Tolerant<String>?
        var credit_line: Tolerant<String>?
        var place_of_origin: Tolerant<String>?
        var artwork_type_title: Tolerant<String>?
        var classification_title: Tolerant<String>?
        var is_public_domain: Tolerant<Bool>?
        var copyright_notice: Tolerant<String>?
        var date_start: FlexibleYear?
        var date_end: FlexibleYear?
        var subject_titles: TolerantList<String>?
        var style_title: Tolerant<String>?
        var term_titles: TolerantList<String>?
        var category_titles: TolerantList<String>?
        var updated_at: FlexibleText?

        struct Thumbnail: Decodable, Sendable {
            var width: FlexibleInt?
            var height: FlexibleInt?
            var alt_text: Tolerant<String>?
        }

        /// What the museum says about the work: `description` is HTML, reduced to text; `artist_display`'s lines
        /// after the first are the maker's nationality and life dates.
        private func details(maker: String?) -> ObjectDetails {
            var details = ObjectDetails(
                description: HTMLText.plainText(description?.value) ?? HTMLText.plainText(short_description?.value),
                objectType: DetailText.line(artwork_type_title?.value) ?? DetailText.line(classification_title?.value),
                materials: DetailText.line(medium_display?.value).map { [$0] } ?? [],
                dimensions: DetailText.block(dimensions?.value),
                creditLine: DetailText.line(credit_line?.value),
                place: DetailText.line(place_of_origin?.value),
                subjects: DetailText.lines((subject_titles?.value ?? []).compactMap { $0 }),
                altText: DetailText.line(thumbnail?.value?.alt_text?.value)
            )
            if let range = YearRange.given(begin: date_start?.value, end: date_end?.value, text: date_display?.text) {
                (details.yearBegin, details.yearEnd) = range
            }
            if let name = DetailText.line(maker) {
                let lines = artist_display?.text?.split(whereSeparator: \.isNewline) ?? []
                let bio = lines.dropFirst().compactMap { DetailText.line(Self.unbracketed($0)) }
                let bracketed = lines.count == 1 ? lines.first.flatMap { Self.bracketedBio(String($0)) }?.bio : nil
                details.makers = [
                    ObjectDetails.Maker(
                        name: name, lifeDates: bio.isEmpty ? DetailText.line(bracketed) : bio.joined(separator: ", "))
                ]
            }
            // The flag says either way; a notice, where there is one, says more than "not public domain".
            switch is_public_domain?.value {
            case true?: details.rights = .publicDomainDedication
            case false?:
                details.rights =
                    DetailText.line(copyright_notice?.value).flatMap { Rights(statement: $0) } ?? .notPublicDomain
            case nil: details.rights = DetailText.line(copyright_notice?.value).flatMap { Rights(statement: $0) }
            }
            // Shown beside the description when both are given, which then keeps only the long one.
            if HTMLText.plainText(description?.value) != nil {
                details.addFact("Summary", HTMLText.plainText(short_description?.value))
            }
            if let classification = DetailText.line(classification_title?.value),
                classification.lowercased() != details.objectType?.lowercased()
            {
                details.addFact("Classification", classification)
            }
            details.addFact("Style", DetailText.line(style_title?.value))
            details.addFact("Terms", DetailText.lines((term_titles?.value ?? []).compactMap { $0 }))
            details.addFact("Categories", DetailText.lines((category_titles?.value ?? []).compactMap { $0 }))
            return details
        }

        /// A line without the brackets around the whole of it: "(French)" is "French".
        private static func unbracketed(_ line: Substring) -> String {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let inner = trimmed.dropFirst().dropLast()
            guard trimmed.hasPrefix("("), trimmed.hasSuffix(")"), !inner.contains(where: { "()".contains($0) })
            else { return trimmed }
            return String(inner)
        }

        /// A one-line `artist_display` whose brackets hold what the next lines would ("Edward Hopper (American,
        /// 1882–1967)"): the name before them, and what they hold when it has a year.
        private static func bracketedBio(_ line: String) -> (name: String, bio: String)? {
            guard line.hasSuffix(")"), let open = line.lastIndex(of: "("), line.startIndex < open else { return nil }
            let bio = line[line.index(after: open)..<line.index(before: line.endIndex)]
            guard bio.contains(where: \.isNumber) else { return nil }
            return (line[..<open].trimmingCharacters(in: .whitespaces), String(bio))
        }

        /// The common object. The maker is `artist_title`, else the first line of `artist_display`; the image
        /// is `{iiif_url}/{image_id}`, sized from the widths the museum serves from its cache.
        func artObject(iiifURL: String, websiteURL: String) -> ArtObject {
            // Only the first line names the maker: the next are nationality and life dates (else, in one line,
            // the brackets hold them).
            let lines = artist_display?.text?.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            let displayed = DetailText.given(
                lines?.first.map {
                    let line = $0.trimmingCharacters(in: .whitespaces)
                    return lines?.count == 1 ? Self.bracketedBio(line)?.name ?? line : line
                })
            let maker = DetailText.given(artist_title?.text) ?? displayed
            let image = image_id?.text.flatMap { id -> ImageReference? in
                // A IIIF identifier is one path segment: anything but unreserved characters is percent-encoded.
                let segment = QueryString.escape(id.trimmingCharacters(in: .whitespaces))
                guard !segment.isEmpty else { return nil }
                let service = "\(iiifURL)/\(segment)"
                return ImageReference(
                    url: "\(service)/full/843,/0/default.jpg",
                    width: thumbnail?.value?.width?.value,
                    height: thumbnail?.value?.height?.value,
                    sizing: .iiif(service: service, cachedWidths: ArtInstituteSource.cachedWidths)
                )
            }
            return ArtObject(
                id: id.value,
                title: DetailText.given(title?.text) ?? "",
                maker: maker,
                date: DetailText.given(date_display?.text),
                image: image,
                objectURL: "\(websiteURL)/artworks/\(id.value)",
                datestamp: DetailText.given(updated_at?.text),
                details: details(maker: maker)
            )
        }
    }
}
