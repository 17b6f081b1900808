import VitrineCore

// What a detail or artist page is made from, combined into its fingerprint without walking its template: a re-run
// keeps the page when these did not change. Each covers every value its page model's key table can give.

extension ArtistPage {
    /// Every value `value(for:)` gives comes from these: a re-run compares them rather than walking 200 cards' template.
    func combineInputs(into fingerprint: inout Fingerprint) -> Bool {
        for text in [siteTitle, section.name, section.countLabel, section.letter, letterHref] {
            fingerprint.combine(text)
        }
        fingerprint.combine(pageIndex)
        fingerprint.combine(pages.count)
        for page in pages {
            fingerprint.combine(page.fileName)
            fingerprint.combine(page.number)
        }
        let range = pages[pageIndex].range
        fingerprint.combine(range.count)
        for position in range {
            let object = section.objects[position]
            for text in [object.id, object.title, object.maker, object.date, object.thumbnailURL] {
                fingerprint.combine(text)
            }
            fingerprint.combine(object.thumbnail2xURL)
            fingerprint.combine(object.thumbnailWidth)
            fingerprint.combine(object.thumbnailHeight)
            fingerprint.combine(objectPages[position])
        }
        return true
    }
}

extension ObjectPage {
    /// Every value `value(for:)` gives comes from these: a re-run compares them rather than walking the template.
    func combineInputs(into fingerprint: inout Fingerprint) -> Bool {
        Self.combineInputs(
            siteTitle: siteTitle, institution: institution, makerName: makerName, object: object,
            sectionPageName: sectionPageName, previous: previous, next: next, into: &fingerprint)
        return true
    }

    /// The inputs of the page these would make, without making it: a night keeps nearly every detail page, and
    /// the page's model (its object copied, its pictures worked out twice) cost more than the comparison.
    static func combineInputs(
        siteTitle: String, institution: String, makerName: String, object: CatalogViewModel.DisplayedObject,
        sectionPageName: String, previous: Neighbour?, next: Neighbour?, into fingerprint: inout Fingerprint
    ) {
        for text in [siteTitle, institution, makerName, object.id, object.title, object.maker, object.date] {
            fingerprint.combine(text)
        }
        let large = object.largeImage
        for text in [sectionPageName, large.url, object.objectURL, object.imageURL] { fingerprint.combine(text) }
        fingerprint.combine(large.width)
        fingerprint.combine(large.height)
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
