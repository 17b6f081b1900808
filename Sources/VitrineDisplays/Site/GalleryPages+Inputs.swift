import VitrineCore

// What a detail or artist page is made from, combined into its fingerprint without walking its template: a re-run
// keeps the page when these did not change. Each covers every value its page model's key table can give.

extension ArtistPage {
    /// Every value `value(for:)` gives comes from these: a re-run compares them rather than walking 200 cards' template.
    func combineInputs(into fingerprint: inout Fingerprint) -> Bool {
        fingerprint.combine(siteTitle)
        fingerprint.combine(section.name)
        fingerprint.combine(section.countLabel)
        fingerprint.combine(section.letter)
        fingerprint.combine(letterHref)
        fingerprint.combine(pageIndex)
        fingerprint.combine(pages.count)
        for page in pages {
            fingerprint.combine(page.fileName)
            fingerprint.combine(page.number)
        }
        // Each card by its key, which says everything the card shows.
        fingerprint.combine(cardKeys.count)
        for key in cardKeys { fingerprint.combine(key) }
        return true
    }
}

extension Card {
    /// What a card shows, from `seed` (the templates' fingerprint, for the artist page's cards): the object's values
    /// that its card shows, read in place, and the 2× thumbnail by what it is made from (`combine(image:)`).
    static func key(
        seed: Fingerprint, object: UnsafePointer<CatalogViewModel.DisplayedObject>, pageName: String
    ) -> Fingerprint {
        var key = seed
        key.combine(object.pointee.id)
        key.combine(object.pointee.title)
        key.combine(object.pointee.maker)
        key.combine(object.pointee.date)
        key.combine(byte: object.pointee.hasDate ? 1 : 0)
        key.combine(object.pointee.thumbnailURL)
        key.combine(image: object.pointee.image)
        key.combine(object.pointee.requestedWidth)
        key.combine(object.pointee.thumbnailWidth)
        key.combine(object.pointee.thumbnailHeight)
        key.combine(pageName)
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
    /// the page's model (its object copied, its pictures worked out twice) cost more than the comparison. Its
    /// pictures (the large rendition and its size, the full image) count by the image reference they are made from:
    /// working out their URLs for every page of a night was three URLs built and checked per object.
    static func combineInputs(
        siteTitle: String, institution: String, makerName: String,
        object: UnsafePointer<CatalogViewModel.DisplayedObject>,
        sectionPageName: String, previous: Neighbour?, next: Neighbour?, into fingerprint: inout Fingerprint
    ) {
        fingerprint.combine(siteTitle)
        fingerprint.combine(institution)
        fingerprint.combine(makerName)
        fingerprint.combine(object.pointee.id)
        fingerprint.combine(object.pointee.title)
        fingerprint.combine(object.pointee.maker)
        fingerprint.combine(object.pointee.date)
        fingerprint.combine(sectionPageName)
        fingerprint.combine(object.pointee.objectURL)
        fingerprint.combine(image: object.pointee.image)
        for neighbour in [previous, next] {
            if let neighbour {
                fingerprint.combine(byte: 1)
                fingerprint.combine(neighbour.title)
                fingerprint.combine(neighbour.pageName)
            } else {
                fingerprint.combine(byte: 0)
            }
        }
    }
}

extension Fingerprint {
    /// An image reference, as the pages derive their pictures from it: every URL and size a page shows of an image
    /// (thumbnails at any width, the detail page's rendition, the full image) is a function of these fields, the
    /// width asked for and Vitrine's version, which every page's fingerprint starts from.
    mutating func combine(image: ImageReference?) {
        guard let image else {
            combine(byte: 0)
            return
        }
        combine(byte: 1)
        combine(image.url)
        combine(image.width ?? -1)
        combine(image.height ?? -1)
        switch image.sizing {
        case .googleImageHost:
            combine(byte: 1)
        case .iiif(let service, let cachedWidths):
            combine(byte: 2)
            combine(service)
            combine(cachedWidths.count)
            for width in cachedWidths { combine(width) }
        case .imgix:
            combine(byte: 3)
        case .fixed(let smallURL, let smallWidth):
            combine(byte: 4)
            combine(byte: smallURL == nil ? 0 : 1)
            combine(smallURL ?? "")
            combine(smallWidth ?? -1)
        case .bundled:
            combine(byte: 5)
        }
    }
}
