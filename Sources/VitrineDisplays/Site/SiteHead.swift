import VitrineCore

/// What every page's head and masthead show of the site (its title, public address and logo) and of the page (its
/// place, title, description and share picture). Canonical links and share previews need the site's address; a
/// page without it still gets its description, favicon and logo.
struct SiteHead: Sendable {
    let title: String
    /// `https://museum.example/collection/`, or empty.
    let url: String
    /// `assets/logo.png`, or empty.
    let logo: String

    init(_ catalog: CatalogViewModel) {
        self.init(title: catalog.title, url: catalog.siteURL, logo: Self.logoPath(catalog.siteLogo))
    }

    init(title: String, url: String = "", logo: String = "") {
        self.title = title
        self.url = url
        self.logo = logo
    }

    /// The logo as a share picture: none for an SVG, which share previews do not show.
    var shareableLogo: String { logo.hasSuffix(".svg") ? "" : logo }

    /// Where the logo file is copied in the site: `assets/logo.{extension}`.
    static func logoPath(_ file: String) -> String {
        guard let dot = file.lastIndex(of: "."), !file.isEmpty else { return "" }
        let fileExtension = file[file.index(after: dot)...].lowercased()
        return SiteIdentity.logoExtensions.contains(fileExtension) ? "assets/logo.\(fileExtension)" : ""
    }

    /// A link as a search engine or a share preview needs it: a web address as it is, a path from the site's top
    /// behind the site's address; empty without one.
    func absolute(_ link: String) -> String {
        if link.isEmpty || WebURL.isWebAddress(link) { return link }
        return url.isEmpty ? "" : url + link
    }

    /// The values of the site and of a page at `path` (from the site's top; empty for the index), seen from
    /// `root`; its share picture is `image`, else the logo (unless an SVG).
    func value(
        for key: TemplateKey, root: String, path: String, title pageTitle: String, description: String, image: String
    ) -> TemplateValue? {
        switch key {
        case .root: .text(root)
        case .siteTitle: .text(title)
        case .hasSiteURL: .flag(!url.isEmpty)
        case .siteURL: .text(url)
        case .canonicalURL: .text(url + path)
        case .pageTitle: .text(pageTitle)
        case .pageDescription: .text(description)
        case .shareImageURL: .text(absolute(image.isEmpty ? shareableLogo : image))
        case .hasShareImage: .flag(!absolute(image.isEmpty ? shareableLogo : image).isEmpty)
        case .logoURL: .text(root + logo)
        case .hasLogo: .flag(!logo.isEmpty)
        default: nil
        }
    }

    /// `the Rijksmuseum collection` (`The …` to start a sentence); a title with its own article keeps it alone
    /// (`The Metropolitan Museum of Art collection`).
    static func withArticle(_ title: String, startingSentence: Bool = false) -> String {
        if title.lowercased().hasPrefix("the ") { return title }
        return (startingSentence ? "The " : "the ") + title
    }

    /// A description of at most `limit` characters, cut at a word with `…`.
    static func shortened(_ text: String, limit: Int = 200) -> String {
        // Walks `limit` characters, not the whole text: descriptions run to thousands.
        guard let limitEnd = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex),
            limitEnd != text.endIndex
        else { return text }
        let cut = text[..<limitEnd]
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<end]) + "…"
    }
}

/// What a list page (index, letter, artist, data) gives the head: its place and what it shows.
struct PageHead: Sendable {
    let site: SiteHead
    let root: String
    let path: String
    let title: String
    let description: String
    var image: String = ""

    func value(for key: TemplateKey) -> TemplateValue? {
        site.value(for: key, root: root, path: path, title: title, description: description, image: image)
    }
}
