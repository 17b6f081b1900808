import VitrineCore

/// Every name a template can ask for, across every page kind. A template's names are looked up here once, when
/// it is compiled; rendering then switches on the case, with no string comparison and no dynamic cast. A name
/// that is not here renders blank (as Mustache renders any missing name), and `TemplateLibrary` says so.
package enum TemplateKey: String, CaseIterable, Sendable {
    // The catalog and every page.
    case title, subtitle, institution, sourceName, objectCount, sectionCount, root, siteTitle
    case siteDescription, hasSiteDescription
    // Lists.
    case sections, objects, letters, groups, chunks, cards, pages
    // A section or a maker's entry.
    case name, slug, markdownAnchor, countLabel, isUnknownMaker, href, hasPages
    // An object or a card.
    case id, maker, makerName, date, hasDate, altText, thumbnailURL, thumbnailWidth, thumbnailHeight, hasThumbnail
    case imageURL, hasImageURL, objectURL, hasObjectURL, thumbnail2xURL, hasThumbnail2x
    case largeImageURL, largeWidth, largeHeight, hasLarge, pageName, sectionPageName
    // A detail page's rich record: its facts (each a `label` and a `value`), its description's paragraphs (each a
    // `text`), and its rights.
    case facts, hasFacts, value, paragraphs, text, hasDescription
    case rightsLabel, rightsURL, hasRights, hasRightsURL, attribution, hasAttribution, attributionParts, isOpenAccess
    // An object's type and medium, where the source gives them (a Markdown line shows them after the date).
    case objectType, hasObjectType, medium, hasMedium
    // Index, letter and artist pages.
    case letter, hasSections, label, file, hasChunks, hasMakers, inline, letterHref, number, pageCount, current
    case gapBefore
    case previous, next
    // Every page's head: the site's address and logo, the page's canonical link, title, description and share
    // picture; an object page's schema.org record.
    case siteURL, hasSiteURL, canonicalURL, pageTitle, pageDescription, shareImageURL, hasShareImage, logoURL, hasLogo
    case jsonLD
    // The data page: its files (each a `file`, `href`, `label`, `size` and `text`) and its rights summary (each a
    // `label`, `rightsURL`, `hasRightsURL` and `countLabel`).
    case dataFiles, hasDataFiles, rights, openLabel
    // Browsing by type and by period: the index's links, and a group's page (its cards rendered as on artist pages).
    case hasTypes, hasPeriods, browseKind, listHref, cardsHTML, showsMaker
}

/// A value a template is given: text, a number, a flag, a context of its own (`{{#next}}{{title}}{{/next}}`), or
/// a list of contexts.
package enum TemplateValue {
    case text(String)
    case number(Int)
    case flag(Bool)
    case context(any TemplateContext)
    case list([any TemplateContext])
    /// A list made one element at a time as the section is rendered: a section of 100,000 objects is never
    /// 100,000 models at once.
    case items(count: Int, element: (Int) -> any TemplateContext)
    /// A list whose elements, rendered once, are copied on the next run: see `TemplateFragments`.
    case fragments(TemplateFragments)
}

/// A typed model a template reads: one `switch` over `TemplateKey` is its whole key table. `nil` means "not
/// mine": the renderer then asks the enclosing contexts, as Mustache does.
package protocol TemplateContext {
    func value(for key: TemplateKey) -> TemplateValue?
}

extension TemplateValue {
    /// A list of typed models.
    static func list<Element: TemplateContext>(_ elements: [Element]) -> TemplateValue {
        .list(elements.map { $0 as any TemplateContext })
    }
}
