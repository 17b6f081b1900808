import VitrineCore
import VitrineOutput

/// The Markdown catalog: `catalog.md`, a table of contents and one `## ` heading per section. Past
/// `splitThreshold` objects, one file is too big to open or render, so `catalog.md` lists the letters and each
/// letter's makers go into `catalog/{letter}.md` (past 50,000 objects, `{letter}--2.md` … too: `MarkdownFile`),
/// with contents of their own. Objects link to their pages in the
/// gallery by the gallery's own names (`pageName`, `sectionPageName`).
package struct MarkdownDisplay: CatalogFileDisplay {
    /// Above this many objects, the catalog is split into a file per letter.
    package static let splitThreshold = 5_000

    package let templates: TemplateLibrary
    /// The gallery's cards per page, which its page names depend on.
    package let cardsPerPage: Int
    package var format: CatalogFormat { .markdown }

    package init(templates: TemplateLibrary, cardsPerPage: Int = ArtistPageNames.defaultCardsPerPage) {
        self.templates = templates
        self.cardsPerPage = cardsPerPage
    }

    package func start(
        _ outline: CatalogViewModel, in folder: OutputFolder
    ) throws(ExportError) -> any CatalogPartWriter {
        Writer(
            templates: templates, folder: folder, outline: outline,
            names: ArtistPageNames(outline, cardsPerPage: cardsPerPage))
    }

    /// The Markdown catalog under way: `catalog.md` whole when the catalog is one part; else each part's letter
    /// files, and the contents at the end.
    private final class Writer: CatalogPartWriter {
        let templates: TemplateLibrary
        let folder: OutputFolder
        let outline: CatalogViewModel
        /// The gallery's artist pages, which each object's line links to.
        let names: ArtistPageNames
        /// Each section's heading anchor, numbered across the catalog as GitHub numbers repeats.
        let anchors: [String]
        let split: Bool
        /// The split catalog's files.
        let files: [MarkdownFile]
        /// The last export's object lines of the letters, which a changed letter copies when they did not change; and
        /// this export's.
        let lastLines: FragmentLibrary?
        let lines = FragmentLog()

        init(
            templates: TemplateLibrary, folder: OutputFolder, outline: CatalogViewModel,
            names: ArtistPageNames
        ) {
            self.templates = templates
            self.folder = folder
            self.outline = outline
            self.names = names
            var registry = MarkdownAnchor(reserved: ["contents"])
            anchors = outline.sections.map { registry.next(for: $0.name) }
            split = outline.objectCount > MarkdownDisplay.splitThreshold
            files = split ? MarkdownFile.files(of: outline) : []
            lastLines = split ? FragmentLibrary("catalog", in: folder) : nil
        }

        func write(_ part: CatalogPart) async throws(ExportError) {
            guard split else {
                let catalog = MarkdownCatalog(
                    catalog: part.catalog, sections: sections(part, part.sections, root: "", names: names))
                try folder.write(templates.render("markdown/catalog.md", catalog), to: "catalog.md")
                return
            }
            let lineSeed = templates.fragmentSeed("markdown/letter.md")
            for file in files where part.sections.contains(file.sections.lowerBound) {
                // A letter's file is one folder down: bundled pictures are linked from there. Its object lines that
                // did not change are copied from its last file.
                let known = lastLines?.known([file.name])
                let letter = MarkdownLetter(
                    title: outline.title, label: file.label, countLabel: file.countLabel,
                    sections: sections(
                        part, file.sections, root: "../", names: names, lineSeed: lineSeed, known: known))
                // A letter whose sections did not change keeps its file.
                let written = try templates.largePage(
                    "markdown/letter.md", letter, to: "catalog/\(file.name)", in: folder)
                try lines.record(file.name, made: written.made, fragments: written.fragments)
                folder.noteCopied(known?.copied ?? 0)
            }
        }

        func finish() async throws(ExportError) {
            guard split else { return }
            try lines.write(of: "catalog", in: folder)
            let letters = files.map { MarkdownLetterLink(label: $0.label, file: $0.name, countLabel: $0.countLabel) }
            let contents = MarkdownContents(
                title: outline.title, subtitle: outline.subtitle, siteDescription: outline.siteDescription,
                letters: letters)
            try folder.write(templates.render("markdown/contents.md", contents), to: "catalog.md")
        }

        /// The sections of `range`, their lines keyed from `lineSeed` and copied from `known` where they can be.
        private func sections(
            _ part: CatalogPart, _ range: Range<Int>, root: String, names: ArtistPageNames,
            lineSeed: Fingerprint = Fingerprint(), known: KnownFragments? = nil
        ) -> [MarkdownSection] {
            range.map { index in
                var section = MarkdownSection(
                    section: part.catalog.sections[index], anchor: anchors[index], names: names, index: index,
                    root: root)
                section.lineSeed = lineSeed
                section.known = known
                return section
            }
        }
    }

    /// Every section's model: its heading's anchor (numbered across the catalog, as GitHub numbers repeats),
    /// and the gallery's artist pages its objects are on. `root` is the way back to the output folder from the file.
    static func sections(
        of viewModel: CatalogViewModel, _ cardsPerPage: Int, root: String
    ) -> [MarkdownSection] {
        let names = ArtistPageNames(viewModel, cardsPerPage: cardsPerPage)
        var anchors = MarkdownAnchor(reserved: ["contents"])
        return viewModel.sections.indices.map { index in
            MarkdownSection(
                section: viewModel.sections[index], anchor: anchors.next(for: viewModel.sections[index].name),
                names: names, index: index, root: root)
        }
    }
}
