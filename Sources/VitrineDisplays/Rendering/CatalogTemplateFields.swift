import VitrineCore

// The Markdown catalog's key tables: the catalog, its sections and their objects, as `Templates/README.md`
// documents them (`TemplateContractTests` checks every documented name has a value).

extension CatalogViewModel: TemplateContext {
    package func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(title)
        case .subtitle: .text(subtitle)
        case .institution: .text(institution)
        case .sourceName: .text(sourceName)
        case .objectCount: .number(objectCount)
        case .sectionCount: .number(sectionCount)
        case .sections: .list(sections)
        default: nil
        }
    }
}

extension CatalogViewModel.DisplayedSection: TemplateContext {
    package func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .name: .text(name)
        case .slug: .text(slug)
        case .markdownAnchor: .text(markdownAnchor)
        case .countLabel: .text(countLabel)
        case .isUnknownMaker: .flag(isUnknownMaker)
        case .objects: .list(objects)
        default: nil
        }
    }
}

extension CatalogViewModel.DisplayedObject: TemplateContext {
    package func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .id: .text(id)
        case .title: .text(title)
        case .maker: .text(maker)
        case .date: .text(date)
        case .hasDate: .flag(hasDate)
        case .altText: .text(altText)
        case .thumbnailURL: .text(thumbnailURL)
        case .thumbnailWidth: .number(thumbnailWidth)
        case .thumbnailHeight: .number(thumbnailHeight)
        case .hasThumbnail: .flag(hasThumbnail)
        case .imageURL: .text(imageURL)
        case .objectURL: .text(objectURL)
        case .hasObjectURL: .flag(hasObjectURL)
        case .thumbnail2xURL: .text(thumbnail2xURL)
        case .largeImageURL: .text(largeImageURL)
        case .largeWidth: .number(largeWidth)
        case .largeHeight: .number(largeHeight)
        case .pageName: .text(pageName)
        case .sectionPageName: .text(sectionPageName)
        default: nil
        }
    }
}
