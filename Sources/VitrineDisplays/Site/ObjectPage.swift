import VitrineCore

// The detail page's model and its neighbours, apart from the list pages in `GalleryPages.swift`: a page of one object,
// whose inputs (`PageInputs`) decide whether a night keeps it.

/// `objects/{page}.html`: an object's detail page, with the previous and next object of its section.
struct ObjectPage: TemplateContext {
    let site: SiteHead
    let institution: String
    let makerName: String
    /// The section's objects, and this page's among them: read in place, not copied for each page.
    let objects: [CatalogViewModel.DisplayedObject]
    let position: Int
    /// The artist page (in `artists/`) that shows the object.
    let sectionPageName: String
    let previous: Neighbour?
    let next: Neighbour?
    /// Made once as the page is built: its head shows the description twice, and its fingerprint and its
    /// template both ask for the facts and whether there are any.
    private var description = ""
    private var jsonLD = ""
    private var facts: [any TemplateContext] = []

    init(
        site: SiteHead, institution: String, makerName: String, objects: [CatalogViewModel.DisplayedObject],
        position: Int, sectionPageName: String, previous: Neighbour?, next: Neighbour?
    ) {
        (self.site, self.institution, self.makerName, self.objects, self.position) =
            (site, institution, makerName, objects, position)
        (self.sectionPageName, self.previous, self.next) = (sectionPageName, previous, next)
        description = madeDescription()
        jsonLD = madeJSONLD()
        facts = objects[position].details.facts.map(Fact.init)
    }

    var object: CatalogViewModel.DisplayedObject { objects[position] }

    /// This page's file name in `objects/`.
    var pageName: String { objects[position].pageName }

    /// `The Night Watch, Rembrandt van Rijn, 1642. Officers and other civic guardsmen…`
    private func madeDescription() -> String {
        let object = object
        let line = [object.title, makerName, object.date].filter { !$0.isEmpty }.joined(separator: ", ") + "."
        let first = object.details.paragraphs.first ?? ""
        return SiteHead.shortened(first.isEmpty ? line : line + " " + first)
    }

    /// The large picture, else the full-size one, from the site's top or absolute.
    private var shareImage: String {
        object.largeImageURL.isEmpty ? object.imageURL : object.largeImageURL
    }

    /// The object as a schema.org `VisualArtwork`, for search engines: JSON whose `<` are escaped, safe inside a
    /// `<script>` element.
    private func madeJSONLD() -> String {
        let object = object
        var bytes: [UInt8] = []
        func add(_ key: StaticString, _ text: String) {
            guard !text.isEmpty else { return }
            bytes.append(UInt8(ascii: ","))
            JSONText.key(key, to: &bytes)
            JSONText.append(text, to: &bytes)
        }
        bytes.append(contentsOf: #"{"@context":"https://schema.org","@type":"VisualArtwork""#.utf8)
        add("name", object.title)
        if !object.maker.isEmpty {
            bytes.append(contentsOf: #","creator":{"@type":"Person","name":"#.utf8)
            JSONText.append(makerName, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        add("dateCreated", object.date)
        add("artform", object.details.objectType)
        add("artMedium", object.details.materials.joined(separator: ", "))
        add("identifier", object.id)
        add("image", site.absolute(shareImage))
        add("url", site.url.isEmpty ? "" : site.url + "objects/" + pageName)
        add("sameAs", object.objectURL)
        add("license", object.details.rightsURL)
        add("creditText", object.details.attribution)
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .siteTitle, .root, .hasSiteURL, .siteURL, .canonicalURL, .logoURL, .hasLogo:
            site.value(for: key, root: "../", path: "objects/\(pageName)", title: "", description: "", image: "")
        case .pageTitle: .text(object.title)
        case .pageDescription: .text(description)
        case .shareImageURL, .hasShareImage:
            site.value(for: key, root: "../", path: "", title: "", description: "", image: shareImage)
        case .jsonLD: .text(jsonLD)
        case .institution: .text(institution)
        case .makerName: .text(makerName)
        case .sectionPageName: .text(sectionPageName)
        case .previous: previous.map { .context($0) }
        case .next: next.map { .context($0) }
        case .facts: .list(facts)
        case .hasFacts: .flag(!facts.isEmpty)
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
        case .paragraphs: .list(object.pointee.details.paragraphs.map(Paragraph.init))
        case .hasDescription: .flag(!object.pointee.details.description.isEmpty)
        case .rightsLabel: .text(object.pointee.details.rightsLabel)
        case .rightsURL: .text(object.pointee.details.rightsURL)
        case .hasRights: .flag(!object.pointee.details.rightsLabel.isEmpty)
        case .hasRightsURL: .flag(!object.pointee.details.rightsURL.isEmpty)
        case .attribution: .text(object.pointee.details.attribution)
        case .hasAttribution: .flag(!object.pointee.details.attribution.isEmpty)
        case .attributionParts: .list(object.pointee.details.attributionParts.map(CreditPart.init))
        case .isOpenAccess: .flag(object.pointee.details.isOpenAccess == true)
        case .objectType: .text(object.pointee.details.objectType)
        case .hasObjectType: .flag(!object.pointee.details.objectType.isEmpty)
        case .medium: .text(object.pointee.details.materials.joined(separator: ", "))
        case .hasMedium: .flag(!object.pointee.details.materials.isEmpty)
        default: nil
        }
    }
}

/// A labelled value of a detail page's list (`Materials`: `canvas, oil paint`); `href` is the value when it is a
/// web address (`Maker in Wikidata`), to link it.
struct Fact: TemplateContext {
    let fact: DisplayedDetails.Fact

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .label: .text(fact.label)
        case .value: .text(fact.value)
        case .href: WebURL.isValid(fact.value) ? .text(fact.value) : nil
        default: nil
        }
    }
}

/// A piece of a credit; `href` where it links.
struct CreditPart: TemplateContext {
    let part: DisplayedDetails.CreditPart

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .text: .text(part.text)
        case .href: part.url.isEmpty ? nil : .text(part.url)
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
