import VitrineCore

/// The Markdown catalog: `catalog.md`, a table of contents and one `## ` heading per section. Past
/// `splitThreshold` objects, one file is too big to open or render, so `catalog.md` lists the letters and each
/// letter's makers go into `catalog/{letter}.md`, with contents of their own. Objects link to their pages in the
/// gallery by the gallery's own names (`pageName`, `sectionPageName`).
package struct MarkdownDisplay: CatalogFileDisplay {
    /// Above this many objects, the catalog is split into a file per letter.
    package static let splitThreshold = 5_000

    package let templates: TemplateLibrary
    /// The gallery's cards per page, which its page names depend on.
    package let cardsPerPage: Int
    package var format: CatalogFormat { .markdown }

    package init(templates: TemplateLibrary, cardsPerPage: Int = GalleryNames.defaultCardsPerPage) {
        self.templates = templates
        self.cardsPerPage = cardsPerPage
    }

    package func write(
        _ viewModel: CatalogViewModel, names shared: SharedNames, to folder: OutputFolder
    ) throws(ExportError) {
        let names = shared.gallery(cardsPerPage: cardsPerPage)
        guard viewModel.objectCount > Self.splitThreshold else {
            let catalog = MarkdownCatalog(
                catalog: viewModel, sections: Self.sections(of: viewModel, cardsPerPage, root: "", names: names))
            try folder.write(templates.render("markdown/catalog.md", catalog), to: "catalog.md")
            return
        }
        let sections = Self.sections(of: viewModel, cardsPerPage, root: "../", names: names)
        var letters: [MarkdownLetterLink] = []
        for group in GalleryPlan.groups(of: viewModel.sections) {
            let file = "\(group.stem).md"
            let countLabel = group.countLabel
            letters.append(MarkdownLetterLink(label: group.label, file: file, countLabel: countLabel))
            // A letter's file is one folder down: bundled pictures are linked from there.
            let letter = MarkdownLetter(
                title: viewModel.title, label: group.label, countLabel: countLabel,
                sections: Array(sections[group.sections.indices]))
            // A letter whose sections did not change keeps its file.
            try templates.page("markdown/letter.md", letter, to: "catalog/\(file)", in: folder)
        }
        let contents = MarkdownContents(title: viewModel.title, subtitle: viewModel.subtitle, letters: letters)
        try folder.write(templates.render("markdown/contents.md", contents), to: "catalog.md")
    }

    /// Every section's model: its heading's anchor (numbered across the catalog, as GitHub numbers repeats),
    /// and the gallery's page names of its objects. `root` is the way back to the output folder from the file.
    static func sections(
        of viewModel: CatalogViewModel, _ cardsPerPage: Int, root: String, names: GalleryNames? = nil
    ) -> [MarkdownSection] {
        let names = names ?? GalleryNames(viewModel, cardsPerPage: cardsPerPage)
        var anchors = MarkdownAnchor(reserved: ["contents"])
        return viewModel.sections.indices.map { index in
            MarkdownSection(
                section: viewModel.sections[index], anchor: anchors.next(for: viewModel.sections[index].name),
                names: names, index: index, root: root)
        }
    }
}
