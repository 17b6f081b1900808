import Foundation
import VitrineCore

/// The JSON of The Met's collection API, as far as Vitrine reads it.
enum MetPayload {
    /// `/v1/objects` and `/v1.1/search`: `objectIDs` is `null` when nothing matches.
    struct IDList: Decodable {
        var total: Int?
        /// One item of another type (`null`, `3.5`) drops that item, not the list.
        var objectIDs: TolerantList<FlexibleID>?
    }

    /// `{"message":"ObjectID not found"}`, the body of a 404.
    struct Message: Decodable {
        var message: String?
    }

    /// `/v1/objects/{id}`: every key is present, with `""` when unknown.
    struct Object: Decodable {
        var objectID: FlexibleID
        // Read leniently, as the details below are: a number where text belongs is its digits, anything else none.
        var title: FlexibleText?
        var artistDisplayName: FlexibleText?
        var objectDate: FlexibleText?
        var primaryImage: FlexibleText?
        var primaryImageSmall: FlexibleText?
        var additionalImages: TolerantList<String>?
        var objectURL: FlexibleText?
        /// When the museum last changed the record (`2023-02-07T04:46:49.237Z`).
        var metadataDate: FlexibleText?
        // The details (`MetPayload+Details.swift`): each dropped, not fatal, when it comes in an unexpected type.
        var medium: Tolerant<String>?
        var dimensions: Tolerant<String>?
        var creditLine: Tolerant<String>?
        var classification: Tolerant<String>?
        var objectName: Tolerant<String>?
        var tags: TolerantList<Tag>?
        var objectBeginDate: FlexibleYear?
        var objectEndDate: FlexibleYear?
        var isPublicDomain: Tolerant<Bool>?
        var rightsAndReproduction: Tolerant<String>?
        var constituents: TolerantList<Constituent>?
        var artistRole: Tolerant<String>?
        var artistDisplayBio: Tolerant<String>?
        var artistAlphaSort: Tolerant<String>?
        var artistBeginDate: Tolerant<String>?
        var artistEndDate: Tolerant<String>?
        var culture: Tolerant<String>?
        var city: Tolerant<String>?
        var country: Tolerant<String>?
        var accessionNumber: Tolerant<String>?
        var department: Tolerant<String>?
        var period: Tolerant<String>?
        var dynasty: Tolerant<String>?
        var artistULAN_URL: Tolerant<String>?
        var artistWikidata_URL: Tolerant<String>?
        var objectWikidata_URL: Tolerant<String>?

        /// The common object. `primaryImage` and `primaryImageSmall` are `""` for works in copyright: then the
        /// first of `additionalImages`, then no image. With no `artistDisplayName`, the first constituent is the
        /// maker.
        var artObject: ArtObject {
            ArtObject(
                id: objectID.value,
                title: DetailText.given(title?.text) ?? "",
                maker: DetailText.given(artistDisplayName?.text) ?? makers.first?.name,
                date: DetailText.given(objectDate?.text),
                image: image,
                objectURL: objectURL?.text.flatMap { $0.isEmpty ? nil : $0 },
                datestamp: metadataDate?.text.flatMap { $0.isEmpty ? nil : $0 },
                details: details
            )
        }

        private var image: ImageReference? {
            let primary = Self.nonEmpty(primaryImage?.text)
            let small = Self.nonEmpty(primaryImageSmall?.text)
            if let full = primary ?? small {
                return ImageReference(
                    url: full, sizing: .fixed(smallURL: small ?? Self.webLarge(full), smallWidth: MetSource.smallWidth))
            }
            guard let additional = additionalImages?.value?.lazy.compactMap(Self.nonEmpty).first else { return nil }
            return ImageReference(
                url: additional, sizing: .fixed(smallURL: Self.webLarge(additional), smallWidth: MetSource.smallWidth))
        }

        private static func nonEmpty(_ text: String?) -> String? {
            guard let text = text?.trimmingCharacters(in: .whitespaces), WebURL.isValid(text) else { return nil }
            return text
        }

        /// The image host keeps a web-sized copy of each original under `/web-large/`.
        private static func webLarge(_ original: String) -> String? {
            original.contains("/original/") ? original.replacingOccurrences(of: "/original/", with: "/web-large/") : nil
        }
    }
}
