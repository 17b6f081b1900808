/// What the published site calls itself and where it lives (`--site-title`, `--site-description`, `--site-url`,
/// `--site-logo`). Without a title the catalog is named after the repository or the source's institution
/// (`Rijksmuseum collection`), never after a host or a source's key.
package struct SiteIdentity: Sendable, Equatable {
    package var title: String?
    package var description: String?
    /// The site's public address, ending in `/` (`https://museum.example/collection/`): canonical links, the
    /// sitemap, `robots.txt` and share previews are made only when it is known.
    package var url: String?
    /// A picture file the site shows in its masthead, copied into `assets/`.
    package var logo: String?

    package init(title: String? = nil, description: String? = nil, url: String? = nil, logo: String? = nil) {
        self.title = title
        self.description = description
        self.url = url
        self.logo = logo
    }

    /// `https://museum.example/collection` → `https://museum.example/collection/`; `nil` for anything but an
    /// absolute http(s) address with a host and no query or fragment.
    package static func siteURL(_ text: String) -> String? {
        let trimmed = text.trimmingASCIIWhitespace()
        guard WebURL.isValid(trimmed), !trimmed.contains("?"), !trimmed.contains("#"), !trimmed.contains("@"),
            !trimmed.contains("\"")
        else { return nil }
        return trimmed.hasSuffix("/") ? trimmed : trimmed + "/"
    }

    /// The picture formats a browser shows as a logo, by file extension.
    package static let logoExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "avif"]
}
