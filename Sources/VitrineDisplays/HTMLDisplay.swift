import VitrineCore

/// The HTML gallery: `index.html` with every section and card, and its assets beside it.
package struct HTMLDisplay: CatalogFileDisplay {
    package let templates: TemplateLibrary
    package var format: CatalogFormat { .html }

    package init(templates: TemplateLibrary) {
        self.templates = templates
    }

    package func write(_ viewModel: CatalogViewModel, to folder: OutputFolder) throws(ExportError) {
        try folder.write(templates.render("html/index.html", viewModel), to: "index.html")
        try folder.write(templates.asset("html/style.css"), to: "assets/style.css")
        try folder.write(templates.asset("html/gallery.js"), to: "assets/gallery.js")
    }
}
