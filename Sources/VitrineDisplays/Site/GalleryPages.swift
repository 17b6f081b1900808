import VitrineCore

// The gallery's page models: one type per page kind and per part a page lists, each with its key table (the
// `switch` in `value(for:)`). `Templates/README.md` documents every key; `TemplateContractTests` checks both
// agree. `root` is the way back to the site's top from the page (`""` or `"../"`).

/// `index.html`.
struct IndexPage: TemplateContext {
    let catalog: CatalogViewModel
    let letters: [LetterLink]
    let groups: [LetterEntry]
    let browsing: (types: Bool, periods: Bool)
    let head: PageHead

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(catalog.title)
        case .subtitle: .text(catalog.subtitle)
        case .siteDescription: .text(catalog.siteDescription)
        case .hasSiteDescription: .flag(!catalog.siteDescription.isEmpty)
        case .objectCount: .number(catalog.objectCount)
        case .sectionCount: .number(catalog.sectionCount)
        case .institution: .text(catalog.institution)
        case .sourceName: .text(catalog.sourceName)
        case .letters: .list(letters)
        case .groups: .list(groups)
        case .hasTypes: .flag(browsing.types)
        case .hasPeriods: .flag(browsing.periods)
        default: head.value(for: key)
        }
    }
}

/// A letter of the index's letter bar.
struct LetterLink: TemplateContext {
    let letter: String
    let hasSections: Bool
    let href: String

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .letter: .text(letter)
        case .hasSections: .flag(hasSections)
        case .href: .text(href)
        default: nil
        }
    }
}

/// A letter's part of the index: its makers, or (when makers are many) links to its letter pages.
struct LetterEntry: TemplateContext {
    let id: String
    let label: String
    let countLabel: String
    var chunks: [ChunkLink]? = nil
    var makers: MakerList? = nil

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .id: .text(id)
        case .label: .text(label)
        case .countLabel: .text(countLabel)
        case .hasChunks: chunks == nil ? nil : .flag(true)
        case .chunks: chunks.map { .list($0) }
        case .hasMakers: makers == nil ? nil : .flag(true)
        default: makers?.value(for: key)
        }
    }
}

/// A link to one page of a letter's makers.
struct ChunkLink: TemplateContext {
    let href: String
    let label: String

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .href: .text(href)
        case .label: .text(label)
        default: nil
        }
    }
}

/// What `html/makers.mustache` is given: the makers, each with its cards when `inline`.
struct MakerList: TemplateContext {
    let inline: Bool
    let root: String
    let sections: ArraySlice<CatalogViewModel.DisplayedSection>
    let names: ArtistPageNames

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .inline: .flag(inline)
        case .root: .text(root)
        case .sections:
            .list(
                sections.indices.map {
                    MakerEntry(
                        section: sections[$0], pages: names.pages[$0], root: root, inline: inline)
                })
        default: nil
        }
    }
}

/// A maker in a list: name, count, its pages, and its cards when the list shows them.
struct MakerEntry: TemplateContext {
    let section: CatalogViewModel.DisplayedSection
    let pages: [ArtistPageNames.SectionPage]
    let root: String
    let inline: Bool

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .name: .text(section.name)
        case .slug: .text(section.slug)
        case .countLabel: .text(section.countLabel)
        case .href: .text(pages.first?.fileName ?? "\(section.slug).html")
        case .hasPages: .flag(pages.count > 1)
        case .pages: .list(pages.map { PageLink(page: $0, current: nil) })
        case .root: .text(root)
        case .cards:
            inline
                ? .items(count: section.objects.count) { [section, root] position in
                    Card(objects: section.objects, position: position, root: root)
                }
                : nil
        default: nil
        }
    }
}

/// `letters/letter-{a…z,other,unknown}.html` (`--2.html` …): one page of a letter's makers.
struct LetterPage: TemplateContext {
    let head: PageHead
    let label: String
    let countLabel: String
    let makers: MakerList

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .label: .text(label)
        case .countLabel: .text(countLabel)
        default: makers.value(for: key) ?? head.value(for: key)
        }
    }
}

/// `artists/{slug}.html` (`{slug}--2.html` …): one page of a section's cards, each a fragment (`TemplateFragments`):
/// a night copies the cards that did not change out of the last run's pages.
struct ArtistPage: TemplateContext {
    let head: PageHead
    let section: CatalogViewModel.DisplayedSection
    let pages: [ArtistPageNames.SectionPage]
    let pageIndex: Int
    let letterHref: String
    /// Each card's key: from `TemplateLibrary.fragmentSeed`, every value it gives for a name a card's body asks for
    /// (made once, for the page's fingerprint and for its rendering).
    let cardKeys: [Fingerprint]
    /// The last run's cards that may be copied; `nil` renders every card.
    var known: KnownFragments? = nil

    /// Every name the page answers.
    static let names: Set<TemplateKey> = [
        .root, .siteTitle, .name, .countLabel, .letter, .letterHref, .hasPages, .number, .pageCount, .pages, .cards,
        .previous, .next, .siteURL, .hasSiteURL, .canonicalURL, .pageTitle, .pageDescription, .shareImageURL,
        .hasShareImage, .logoURL, .hasLogo,
    ]

    init(
        site: SiteHead, section: CatalogViewModel.DisplayedSection, pages: [ArtistPageNames.SectionPage],
        pageIndex: Int, letterHref: String, cardSeed: Fingerprint, templateKeys: [TemplateKey]
    ) {
        let range = pages[pageIndex].range
        let pictured = section.objects[range].first { !$0.largeImageURL.isEmpty || !$0.thumbnailURL.isEmpty }
        head = PageHead(
            site: site, root: "../", path: "artists/\(pages[pageIndex].fileName)",
            title: pages.count > 1 ? "\(section.name), page \(pageIndex + 1)" : section.name,
            description: "\(section.countLabel) by \(section.name) in \(SiteHead.withArticle(site.title)).",
            image: pictured.map { $0.largeImageURL.isEmpty ? $0.thumbnailURL : $0.largeImageURL } ?? "")
        self.section = section
        self.pages = pages
        self.pageIndex = pageIndex
        self.letterHref = letterHref
        cardKeys = pages[pageIndex].range.map { position in
            var key = cardSeed
            key.combine(model: Card(objects: section.objects, position: position, root: "../"), keys: templateKeys)
            return key
        }
    }

    /// The page's file name in `artists/`.
    var fileName: String { pages[pageIndex].fileName }

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .name: return .text(section.name)
        case .countLabel: return .text(section.countLabel)
        case .letter: return .text(GalleryPlan.letterLabel(section.letter))
        case .letterHref: return .text(letterHref)
        case .cards:
            let range = pages[pageIndex].range
            return .fragments(
                TemplateFragments(
                    element: { [section] offset in
                        Card(objects: section.objects, position: range.lowerBound + offset, root: "../")
                    },
                    keys: cardKeys, ownNames: Card.names, known: known))
        default: return Pager(pages: pages, pageIndex: pageIndex).value(for: key) ?? head.value(for: key)
        }
    }
}

/// An object's card: thumbnail, title, date, id, and the link to its page.
struct Card: TemplateContext {
    /// The section's objects, and this card's place among them: read in place, not copied for each card.
    let objects: [CatalogViewModel.DisplayedObject]
    let position: Int
    let root: String
    /// Whether the card names the maker: on a page by type or period, not on the maker's own page.
    var showsMaker = false
    /// The thumbnail at twice the width, worked out once per card.
    private let thumbnail2xURL: String

    /// Every name a card answers, whatever its object.
    static let names: Set<TemplateKey> = [
        .root, .thumbnail2xURL, .hasThumbnail2x, .pageName, .id, .title, .date, .hasDate, .altText, .thumbnailURL,
        .thumbnailWidth, .thumbnailHeight, .hasThumbnail, .showsMaker, .maker,
    ]

    init(objects: [CatalogViewModel.DisplayedObject], position: Int, root: String) {
        self.objects = objects
        self.position = position
        self.root = root
        thumbnail2xURL = objects.withObject(at: position) { $0.pointee.thumbnail2xURL } ?? ""
    }

    func value(for key: TemplateKey) -> TemplateValue? {
        objects.withObject(at: position) { value(of: $0, for: key) } ?? nil
    }

    private func value(
        of object: UnsafePointer<CatalogViewModel.DisplayedObject>, for key: TemplateKey
    ) -> TemplateValue? {
        switch key {
        case .root: .text(root)
        case .thumbnail2xURL: .text(GalleryPlan.located(thumbnail2xURL, from: root))
        case .hasThumbnail2x: .flag(!thumbnail2xURL.isEmpty)
        case .showsMaker: .flag(showsMaker && !object.pointee.maker.isEmpty)
        case .maker: .text(object.pointee.maker)
        default: object.shownValue(for: key, root: root)
        }
    }
}
