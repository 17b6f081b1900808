import Foundation
import VitrineCore

/// The JSON of the Art Institute of Chicago's API, as far as Vitrine reads it.
enum ArtInstitutePayload {
    /// The fields asked for with `fields=`: nothing else comes back.
    static let fields = ["id", "title", "artist_title", "artist_display", "date_display", "image_id", "thumbnail"]

    struct List: Decodable {
        var pagination: Pagination?
        var data: [Lenient<Artwork>]?
        var config: Config?
    }

    struct Pagination: Decodable {
        var total: Int?
        var limit: Int?
        var total_pages: Int?
        var current_page: Int?
    }

    struct Config: Decodable {
        var iiif_url: String?
        var website_url: String?
    }

    struct Artwork: Decodable {
        var id: FlexibleID
        var title: String?
        var artist_title: String?
        var artist_display: String?
        var date_display: String?
        var image_id: String?
        var thumbnail: Thumbnail?

        struct Thumbnail: Decodable {
            var width: Int?
            var height: Int?
            var alt_text: String?
        }

        /// The common object. The maker is `artist_title`, else the first line of `artist_display`; the image
        /// is `{iiif_url}/{image_id}`, sized from the widths the museum serves from its cache.
        func artObject(iiifURL: String, websiteURL: String) -> ArtObject {
            let displayed = artist_display?.split(whereSeparator: \.isNewline).first.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let maker = artist_title.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } ?? displayed
            let image = image_id.flatMap { id -> ImageReference? in
                let trimmed = id.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { return nil }
                let service = "\(iiifURL)/\(trimmed)"
                return ImageReference(
                    url: "\(service)/full/843,/0/default.jpg",
                    width: thumbnail?.width,
                    height: thumbnail?.height,
                    sizing: .iiif(service: service, cachedWidths: ArtInstituteSource.cachedWidths)
                )
            }
            return ArtObject(
                id: id.value,
                title: title ?? "",
                maker: maker,
                date: date_display,
                image: image,
                objectURL: "\(websiteURL)/artworks/\(id.value)"
            )
        }
    }
}
