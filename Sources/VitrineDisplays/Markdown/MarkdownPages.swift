import VitrineCore

// The Markdown catalog's models, each with its key table: the catalog, its sections (with the anchors GitHub
// gives their headings) and their objects (with the gallery's page names, to link into it); past
// `MarkdownDisplay.splitThreshold` objects, the contents and a file per letter. `Templates/README.md` documents
// every key; `TemplateContractTests` checks both agree.

/// `catalog.md`: the whole catalog in one file.
struct MarkdownCatalog: TemplateContext {
    let catalog: CatalogViewModel
    let sections: [MarkdownSection]

    /// Every name the catalog answers.
    static let names: Set<TemplateKey> = [
        .title, .subtitle, .siteDescription, .hasSiteDescription, .institution, .sourceName, .objectCount,
        .sectionCount, .sections,
    ]

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(catalog.title)
        case .subtitle: .text(catalog.subtitle)
        case .siteDescription: .text(catalog.siteDescription)
        case .hasSiteDescription: .flag(!catalog.siteDescription.isEmpty)
        case .institution: .text(catalog.institution)
        case .sourceName: .text(catalog.sourceName)
        case .objectCount: .number(catalog.objectCount)
        case .sectionCount: .number(catalog.sectionCount)
        case .sections: .list(sections)
        default: nil
        }
    }
}

/// One maker's section under its `## ` heading.
struct MarkdownSection: TemplateContext {
    let section: CatalogViewModel.DisplayedSection
    /// The anchor GitHub-flavoured Markdown gives the section's heading.
    let anchor: String
    /// The gallery's artist pages, and this section's place in the catalog: each object links to its pages there.
    let names: ArtistPageNames
    let index: Int
    /// The way back to the output folder from the file (`""`, or `"../"` from `catalog/`): bundled pictures
    /// are linked relatively.
    let root: String
    /// Where each object line's key starts (`TemplateLibrary.fragmentSeed`), and the last run's lines of the file
    /// that may be copied (`nil`: every line is rendered).
    var lineSeed = Fingerprint()
    var known: KnownFragments? = nil

    /// Every name a section answers.
    static let names: Set<TemplateKey> = [.name, .slug, .markdownAnchor, .countLabel, .isUnknownMaker, .objects]

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .name: .text(section.name)
        case .slug: .text(section.slug)
        case .markdownAnchor: .text(anchor)
        case .countLabel: .text(section.countLabel)
        case .isUnknownMaker: .flag(section.isUnknownMaker)
        case .objects:
            .fragments(
                TemplateFragments(
                    count: section.objects.count,
                    element: { [section, names, index, root] position in
                        MarkdownObject(
                            objects: section.objects, position: position,
                            sectionPageName: names.sectionPageName(index, position), root: root)
                    },
                    ownNames: MarkdownObject.names,
                    seed: lineSeed,
                    known: known))
        default: nil
        }
    }
}

/// One object's line.
struct MarkdownObject: TemplateContext {
    /// The section's objects, and this one's place among them: read in place, not copied for each line.
    let objects: [CatalogViewModel.DisplayedObject]
    let position: Int
    let sectionPageName: String
    let root: String

    /// Every name an object's line answers, whatever its object.
    static let names: Set<TemplateKey> = [
        .maker, .imageURL, .objectURL, .hasObjectURL, .thumbnail2xURL, .largeImageURL, .largeWidth, .largeHeight,
        .pageName, .sectionPageName, .id, .title, .date, .hasDate, .altText, .thumbnailURL, .thumbnailWidth,
        .thumbnailHeight, .hasThumbnail, .objectType, .hasObjectType, .medium, .hasMedium,
    ]

    func value(for key: TemplateKey) -> TemplateValue? {
        objects.withObject(at: position) { value(of: $0, for: key) } ?? nil
    }

    private func value(
        of object: UnsafePointer<CatalogViewModel.DisplayedObject>, for key: TemplateKey
    ) -> TemplateValue? {
        switch key {
        case .maker: .text(object.pointee.maker)
        // The catalog's own templates show none of these.
        case .imageURL: .text(GalleryPlan.located(object.pointee.imageURL, from: root))
        case .objectURL: .text(object.pointee.objectURL)
        case .hasObjectURL: .flag(object.pointee.hasObjectURL)
        case .thumbnail2xURL: .text(GalleryPlan.located(object.pointee.thumbnail2xURL, from: root))
        case .largeImageURL: .text(GalleryPlan.located(object.pointee.largeImageURL, from: root))
        case .largeWidth: .number(object.pointee.largeWidth)
        case .largeHeight: .number(object.pointee.largeHeight)
        case .sectionPageName: .text(sectionPageName)
        case .objectType: .text(object.pointee.details.objectType)
        case .hasObjectType: .flag(!object.pointee.details.objectType.isEmpty)
        case .medium: .text(object.pointee.details.materials.joined(separator: ", "))
        case .hasMedium: .flag(!object.pointee.details.materials.isEmpty)
        default: object.shownValue(for: key, root: root)
        }
    }
}

/// `catalog.md` when split: the letters, each with its file.
struct MarkdownContents: TemplateContext {
    let title: String
    let subtitle: String
    var siteDescription = ""
    let letters: [MarkdownLetterLink]

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(title)
        case .subtitle: .text(subtitle)
        case .siteDescription: .text(siteDescription)
        case .hasSiteDescription: .flag(!siteDescription.isEmpty)
        case .letters: .list(letters)
        default: nil
        }
    }
}

/// A letter in the split catalog's contents.
struct MarkdownLetterLink: TemplateContext {
    let label: String
    /// The letter's file inside `catalog/` (`a.md`).
    let file: String
    let countLabel: String

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .label: .text(label)
        case .file: .text(file)
        case .countLabel: .text(countLabel)
        default: nil
        }
    }
}

/// `catalog/{letter}.md`: one letter's sections, with the catalog's section and object keys.
struct MarkdownLetter: TemplateContext {
    let title: String
    let label: String
    let countLabel: String
    let sections: [MarkdownSection]

    /// Every name a letter answers.
    static let names: Set<TemplateKey> = [.title, .label, .countLabel, .sections]

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(title)
        case .label: .text(label)
        case .countLabel: .text(countLabel)
        case .sections: .list(sections)
        default: nil
        }
    }
}
