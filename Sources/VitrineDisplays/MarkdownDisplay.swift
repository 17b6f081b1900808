import VitrineCore

/// The Markdown catalog: `catalog.md`, a table of contents and one `## ` heading per section.
package struct MarkdownDisplay: CatalogFileDisplay {
    package let templates: TemplateLibrary
    package var format: CatalogFormat { .markdown }

    package init(templates: TemplateLibrary) {
        self.templates = templates
    }

    package func write(_ viewModel: CatalogViewModel, to folder: OutputFolder) throws(ExportError) {
        try folder.write(templates.render("markdown/catalog.md", viewModel), to: "catalog.md")
    }
}
