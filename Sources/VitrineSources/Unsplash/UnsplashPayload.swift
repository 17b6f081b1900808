import Foundation
import VitrineCore

/// The JSON of Unsplash's API, as far as Vitrine reads it.
enum UnsplashPayload {
    /// `/search/photos` wraps the list; `/photos` and `/users/{name}/photos` are bare arrays.
    struct SearchResult: Decodable {
        var total: Int?
        var total_pages: Int?
        var results: [Lenient<Photo>]
    }

    /// `{"errors":["…"]}`.
    struct Errors: Decodable {
        var errors: [String]?
    }

    struct Photo: Decodable {
        // Each read whatever its type, or dropped alone: one wrong-typed field does not lose the photo.
        var id: FlexibleID
        var created_at: DateText?
        var updated_at: DateText?
        var width: FlexibleInt?
        var height: FlexibleInt?
        var description: Tolerant<String>?
        var alt_description: Tolerant<String>?
        var user: Tolerant<User>?
        var urls: Tolerant<URLs>?
        var links: Tolerant<Links>?
        /// Set on the advertisements Unsplash places in its feed.
        var sponsorship: Tolerant<Sponsorship>?
        /// Often `null` in listings; filled on a photo's own page.
        var location: Tolerant<Location>?
        /// The photo's dominant colour (`#0c2626`); dropped alone, not with the photo, when of another type.
        var color: Tolerant<String>?

        struct Location: Decodable, Sendable {
            var name: String?
            var city: String?
            var country: String?

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                (name, city, country) = (container.text(.name), container.text(.city), container.text(.country))
            }

            private enum CodingKeys: String, CodingKey { case name, city, country }
        }

        struct Sponsorship: Decodable, Sendable {
            var tagline: String?
        }

        struct User: Decodable, Sendable {
            var name: FlexibleText?
            var username: FlexibleText?
            var links: Tolerant<Links>?
        }

        struct URLs: Decodable, Sendable {
            var raw: String?
            var full: String?

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                (raw, full) = (container.text(.raw), container.text(.full))
            }

            private enum CodingKeys: String, CodingKey { case raw, full }
        }

        struct Links: Decodable, Sendable {
            var html: String?

            init(from decoder: any Decoder) throws {
                html = try decoder.container(keyedBy: CodingKeys.self).text(.html)
            }

            private enum CodingKeys: String, CodingKey { case html }
        }

        /// The common object: sections by photographer, the title from `description` or `alt_description`, the
        /// image from `urls.raw` sized by Imgix (`&w=`), keeping its `ixid`.
        var artObject: ArtObject {
            let title = [description?.value, alt_description?.value].lazy.compactMap(DetailText.given).first
            let image = (urls?.value?.raw).flatMap { raw in
                WebURL.isValid(raw)
                    ? ImageReference(url: raw, width: width?.value, height: height?.value, sizing: .imgix) : nil
            }
            return ArtObject(
                id: id.value,
                title: title ?? "",
                maker: DetailText.given(user?.value?.name?.text) ?? DetailText.given(user?.value?.username?.text),
                date: createdDay,
                image: image,
                objectURL: links?.value?.html,
                datestamp: updated_at?.value.flatMap(DetailText.given),
                details: details
            )
        }

        /// The day of `created_at` (`2016-05-03T11:00:28-04:00` gives `2016-05-03`); `nil` when it names no day.
        private var createdDay: String? {
            guard let day = created_at?.value?.prefix(10),
                let match = day.wholeMatch(of: /\d{4}-(\d{2})-(\d{2})/),
                let month = Int(match.output.1), let dayOfMonth = Int(match.output.2),
                (1...12).contains(month), (1...31).contains(dayOfMonth)
            else { return nil }
            return String(day)
        }

        /// Every photo is under the Unsplash License, and Unsplash's API guidelines ask for the photographer's
        /// credit with links to their profile and to Unsplash, tagged as referrals (the credit's links; the object's
        /// own link and the photographer's fact stay the addresses the API gives).
        private var details: ObjectDetails {
            let name = DetailText.line(user?.value?.name?.text) ?? DetailText.line(user?.value?.username?.text)
            let profile = WebURL.filter(user?.value?.links?.value?.html)
            // The credit in pieces, so that a name that is also one of its words (`Photo`) is linked where it stands.
            var links: [Rights.Link] = [.init(text: name == nil ? "Photo on " : "Photo by ", url: "")]
            if let name {
                links.append(.init(text: name, url: profile.isEmpty ? "" : Self.referral(profile)))
                links.append(.init(text: " on ", url: ""))
            }
            links.append(.init(text: "Unsplash", url: Self.referral("https://unsplash.com/")))
            let cityAndCountry = [location?.value?.city, location?.value?.country].compactMap { DetailText.line($0) }
            let place =
                DetailText.line(location?.value?.name)
                ?? (cityAndCountry.isEmpty ? nil : cityAndCountry.joined(separator: ", "))
            let year = createdDay.flatMap { Int($0.prefix(4)) }
            var details = ObjectDetails(
                description: DetailText.block(description?.value),
                place: place,
                yearBegin: year,
                yearEnd: year,
                makers: name.map { [ObjectDetails.Maker(name: $0)] } ?? [],
                rights: Rights(
                    url: "https://unsplash.com/license", label: "Unsplash License", isOpen: true,
                    attribution: name.map { "Photo by \($0) on Unsplash" } ?? "Photo on Unsplash", links: links),
                altText: DetailText.line(alt_description?.value)
            )
            // The photographer's page as data too (the photo's own is the object's link).
            details.addFact("Photographer", profile)
            if let color = DetailText.line(color?.value), color.utf8.count == 7, color.hasPrefix("#") {
                details.addFact("Colour", color)
            }
            if let width = width?.value, let height = height?.value, width > 0, height > 0 {
                details.addFact("Size in pixels", "\(width) × \(height)")
            }
            return details
        }

        /// `url` tagged as a referral from Vitrine, as the guidelines ask of a credit's links.
        static func referral(_ url: String) -> String {
            url + (url.contains("?") ? "&" : "?") + "utm_source=vitrine&utm_medium=referral"
        }
    }
}
