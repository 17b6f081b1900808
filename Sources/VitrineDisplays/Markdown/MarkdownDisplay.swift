import VitrineCore

/// The Markdown catalog: `catalog.md`, a table of contents and one `## ` heading per section. Past
/// `splitThreshold` objects, one file is too big to open or render, so `catalog.md` lists the letters and each
/// letter's makers go into `catalog/{letter}.md`, with contents of their own.
package struct MarkdownDisplay: CatalogFileDisplay {
    /// Above this many objects, the catalog is split into a file per letter.
    package static let splitThreshold = 5_000

    package let templates: TemplateLibrary
    package var format: CatalogFormat { .markdown }

    package init(templates: TemplateLibrary) {
        self.templates = templates
    }

    package func write(_ viewModel: CatalogViewModel, to folder: OutputFolder) throws(ExportError) {
        guard viewModel.objectCount > Self.splitThreshold else {
            try folder.write(templates.render("markdown/catalog.md", viewModel), to: "catalog.md")
            return
        }
        var letters: [MarkdownLetterLink] = []
        for group in GalleryPlan.groups(of: viewModel.sections) {
            let file = "\(group.stem).md"
            let countLabel = group.countLabel
            letters.append(MarkdownLetterLink(label: group.label, file: file, countLabel: countLabel))
            // A letter's file is one folder down: bundled pictures are linked from there.
            let sections =
                viewModel.bundledFiles.isEmpty ? Array(group.sections) : group.sections.map(Self.oneFolderDown)
            let letter = MarkdownLetter(
                title: viewModel.title, label: group.label, countLabel: countLabel, sections: sections)
            // A letter whose sections did not change keeps its file.
            try templates.page("markdown/letter.md", letter, to: "catalog/\(file)", in: folder)
        }
        let contents = MarkdownContents(title: viewModel.title, subtitle: viewModel.subtitle, letters: letters)
        try folder.write(templates.render("markdown/contents.md", contents), to: "catalog.md")
    }

    /// A section whose bundled pictures are linked from `catalog/`.
    private static func oneFolderDown(_ section: CatalogViewModel.DisplayedSection) -> CatalogViewModel.DisplayedSection
    {
        var section = section
        for index in section.objects.indices {
            section.objects[index].thumbnailURL = GalleryPlan.located(section.objects[index].thumbnailURL, from: "../")
            section.objects[index].thumbnail2xURL = GalleryPlan.located(
                section.objects[index].thumbnail2xURL, from: "../")
            section.objects[index].imageURL = GalleryPlan.located(section.objects[index].imageURL, from: "../")
            section.objects[index].largeImageURL = GalleryPlan.located(
                section.objects[index].largeImageURL, from: "../")
        }
        return section
    }
}
