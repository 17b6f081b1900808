import VitrineCore

// The detail page's model and its neighbours, apart from the list pages in `GalleryPages.swift`: a page of one object,
// whose inputs (`PageInputs`) decide whether a night keeps it.

/// `objects/{page}.html`: an object's detail page, with the previous and next object of its section.
struct ObjectPage: TemplateContext {
    let siteTitle: String
    let institution: String
    let makerName: String
    /// The section's objects, and this page's among them: read in place, not copied for each page.
    let objects: [CatalogViewModel.DisplayedObject]
    let position: Int
    /// The artist page (in `artists/`) that shows the object.
    let sectionPageName: String
    let previous: Neighbour?
    let next: Neighbour?

    var object: CatalogViewModel.DisplayedObject { objects[position] }

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .root: .text("../")
        case .siteTitle: .text(siteTitle)
        case .institution: .text(institution)
        case .makerName: .text(makerName)
        case .sectionPageName: .text(sectionPageName)
        case .previous: previous.map { .context($0) }
        case .next: next.map { .context($0) }
        default: objects.withObject(at: position) { value(of: $0, for: key) } ?? nil
        }
    }

    private func value(
        of object: UnsafePointer<CatalogViewModel.DisplayedObject>, for key: TemplateKey
    ) -> TemplateValue? {
        switch key {
        case .id: .text(object.pointee.id)
        case .title: .text(object.pointee.title)
        case .date: .text(object.pointee.date)
        case .hasDate: .flag(object.pointee.hasDate)
        // The museum's own alt text where it wrote one; cards keep title, maker and date.
        case .altText:
            .text(object.pointee.details.altText.isEmpty ? object.altText : object.pointee.details.altText)
        case .largeImageURL: .text(GalleryPlan.located(object.pointee.largeImageURL, from: "../"))
        case .largeWidth: .number(object.pointee.largeWidth)
        case .largeHeight: .number(object.pointee.largeHeight)
        case .hasLarge: .flag(!object.pointee.largeImageURL.isEmpty)
        case .objectURL: .text(object.pointee.objectURL)
        case .hasObjectURL: .flag(object.pointee.hasObjectURL)
        case .imageURL: .text(GalleryPlan.located(object.pointee.imageURL, from: "../"))
        case .hasImageURL: .flag(!object.pointee.imageURL.isEmpty)
        default: value(ofDetailsOf: object, for: key)
        }
    }

    /// The details' values, read where they are: a copy of the details for each name asked would be a reference
    /// count for each of their strings, on every page of every night.
    private func value(
        ofDetailsOf object: UnsafePointer<CatalogViewModel.DisplayedObject>, for key: TemplateKey
    ) -> TemplateValue? {
        switch key {
        case .facts: .list(object.pointee.details.facts.map(Fact.init))
        case .hasFacts: .flag(!object.pointee.details.facts.isEmpty)
        case .paragraphs: .list(object.pointee.details.paragraphs.map(Paragraph.init))
        case .hasDescription: .flag(!object.pointee.details.description.isEmpty)
        case .rightsLabel: .text(object.pointee.details.rightsLabel)
        case .rightsURL: .text(object.pointee.details.rightsURL)
        case .hasRights: .flag(!object.pointee.details.rightsLabel.isEmpty)
        case .hasRightsURL: .flag(!object.pointee.details.rightsURL.isEmpty)
        case .attribution: .text(object.pointee.details.attribution)
        case .hasAttribution: .flag(!object.pointee.details.attribution.isEmpty)
        case .isOpenAccess: .flag(object.pointee.details.isOpenAccess == true)
        case .objectType: .text(object.pointee.details.objectType)
        case .hasObjectType: .flag(!object.pointee.details.objectType.isEmpty)
        case .medium: .text(object.pointee.details.materials.joined(separator: ", "))
        case .hasMedium: .flag(!object.pointee.details.materials.isEmpty)
        default: nil
        }
    }
}

/// A labelled value of a detail page's list (`Materials`: `canvas, oil paint`).
struct Fact: TemplateContext {
    let fact: DisplayedDetails.Fact

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .label: .text(fact.label)
        case .value: .text(fact.value)
        default: nil
        }
    }
}

/// A paragraph of an object's description.
struct Paragraph: TemplateContext {
    let text: String

    func value(for key: TemplateKey) -> TemplateValue? {
        key == .text ? .text(text) : nil
    }
}

/// The previous or next object on a detail page.
struct Neighbour: TemplateContext {
    /// Only the title: a copy of the whole object is a dozen reference counts for one string.
    let title: String
    let pageName: String

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(title)
        case .pageName: .text(pageName)
        default: nil
        }
    }
}
