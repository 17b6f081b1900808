import VitrineCore

// The detail page's model and its neighbours, apart from the list pages in `GalleryPages.swift`: a page of one object,
// whose inputs (`GalleryPages+Inputs.swift`) decide whether a night keeps it.

/// `objects/{page}.html`: an object's detail page, with the previous and next object of its section.
struct ObjectPage: TemplateContext {
    let siteTitle: String
    let institution: String
    let makerName: String
    let object: CatalogViewModel.DisplayedObject
    /// The artist page (in `artists/`) that shows the object.
    let sectionPageName: String
    let previous: Neighbour?
    let next: Neighbour?

    init(
        siteTitle: String, institution: String, makerName: String, object: CatalogViewModel.DisplayedObject,
        sectionPageName: String, previous: Neighbour?, next: Neighbour?
    ) {
        self.siteTitle = siteTitle
        self.institution = institution
        self.makerName = makerName
        self.object = object
        self.sectionPageName = sectionPageName
        self.previous = previous
        self.next = next
    }

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .root: .text("../")
        case .siteTitle: .text(siteTitle)
        case .institution: .text(institution)
        case .id: .text(object.id)
        case .title: .text(object.title)
        case .makerName: .text(makerName)
        case .date: .text(object.date)
        case .hasDate: .flag(object.hasDate)
        case .altText: .text(object.altText)
        case .sectionPageName: .text(sectionPageName)
        case .largeImageURL: .text(GalleryPlan.located(object.largeImageURL, from: "../"))
        case .largeWidth: .number(object.largeWidth)
        case .largeHeight: .number(object.largeHeight)
        case .hasLarge: .flag(!object.largeImageURL.isEmpty)
        case .objectURL: .text(object.objectURL)
        case .hasObjectURL: .flag(object.hasObjectURL)
        case .imageURL: .text(GalleryPlan.located(object.imageURL, from: "../"))
        case .hasImageURL: .flag(!object.imageURL.isEmpty)
        case .previous: previous.map { .context($0) }
        case .next: next.map { .context($0) }
        default: nil
        }
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
