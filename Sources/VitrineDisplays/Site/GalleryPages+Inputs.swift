import VitrineCore

// What a detail or artist page is made from, combined into its fingerprint without walking its template: a re-run
// keeps the page when these did not change. Each covers every value its page model's key table can give.

extension ArtistPage {
    /// Every value `value(for:)` gives comes from these: a re-run compares them rather than walking the template of
    /// a page of cards.
    func combineInputs(into fingerprint: inout Fingerprint) -> Bool {
        fingerprint.combine(field: siteTitle)
        fingerprint.combine(field: section.name)
        fingerprint.combine(field: section.countLabel)
        fingerprint.combine(field: section.letter)
        fingerprint.combine(field: letterHref)
        fingerprint.combine(field: pageIndex)
        fingerprint.combine(field: pages.count)
        for page in pages {
            fingerprint.combine(field: page.fileName)
            fingerprint.combine(field: page.number)
        }
        // Each card by its key, which says everything the card shows.
        fingerprint.combine(field: cardKeys.count)
        for key in cardKeys { fingerprint.combine(key) }
        return true
    }
}

extension Card {
    /// What a card shows, from `seed` (the templates' fingerprint, for the artist page's cards): what every fragment
    /// shows of its object (`combine(shownOf:)`), and its page's name.
    static func key(
        seed: Fingerprint, object: UnsafePointer<CatalogViewModel.DisplayedObject>, pageName: String
    ) -> Fingerprint {
        var key = seed
        key.combine(shownOf: object)
        key.combine(field: pageName)
        return key
    }
}

extension ObjectPage {
    /// Every value `value(for:)` gives comes from these: a re-run compares them rather than walking the template.
    func combineInputs(into fingerprint: inout Fingerprint) -> Bool {
        withUnsafePointer(to: object) { object in
            Self.combineInputs(
                siteTitle: siteTitle, institution: institution, makerName: makerName, object: object,
                sectionPageName: sectionPageName, previous: previous, next: next, into: &fingerprint)
        }
        return true
    }

    /// The inputs of the page these would make, without making it: a night keeps nearly every detail page, and
    /// the page's model (its object copied) costs more than the comparison.
    static func combineInputs(
        siteTitle: String, institution: String, makerName: String,
        object: UnsafePointer<CatalogViewModel.DisplayedObject>,
        sectionPageName: String, previous: Neighbour?, next: Neighbour?, into fingerprint: inout Fingerprint
    ) {
        fingerprint.combine(field: siteTitle)
        fingerprint.combine(field: institution)
        fingerprint.combine(field: makerName)
        fingerprint.combine(field: object.pointee.id)
        fingerprint.combine(field: object.pointee.title)
        fingerprint.combine(field: object.pointee.maker)
        fingerprint.combine(field: object.pointee.date)
        fingerprint.combine(field: sectionPageName)
        fingerprint.combine(field: object.pointee.objectURL)
        fingerprint.combine(field: object.pointee.largeImageURL)
        fingerprint.combine(field: object.pointee.largeWidth)
        fingerprint.combine(field: object.pointee.largeHeight)
        fingerprint.combine(field: object.pointee.imageURL)
        for neighbour in [previous, next] {
            if let neighbour {
                fingerprint.combine(byte: 1)
                fingerprint.combine(field: neighbour.title)
                fingerprint.combine(field: neighbour.pageName)
            } else {
                fingerprint.combine(byte: 0)
            }
        }
    }
}

extension Fingerprint {
    /// What a card and a Markdown line both show of an object, read in place: its values and its pictures.
    mutating func combine(shownOf object: UnsafePointer<CatalogViewModel.DisplayedObject>) {
        combine(field: object.pointee.id)
        combine(field: object.pointee.title)
        combine(field: object.pointee.maker)
        combine(field: object.pointee.date)
        combine(byte: object.pointee.hasDate ? 1 : 0)
        combine(field: object.pointee.thumbnailURL)
        combine(field: object.pointee.thumbnailWidth)
        combine(field: object.pointee.thumbnailHeight)
        combine(field: object.pointee.thumbnail2xURL)
        combine(field: object.pointee.largeImageURL)
        combine(field: object.pointee.largeWidth)
        combine(field: object.pointee.largeHeight)
        combine(field: object.pointee.imageURL)
    }
}
