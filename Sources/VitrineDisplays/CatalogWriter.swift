import VitrineCore

/// Writes every requested format into a staging folder, then moves them into place together: the
/// `CatalogDisplayLogic` the Presenter talks to.
package struct CatalogWriter: CatalogDisplayLogic {
    package let outputDirectory: String
    package let displays: [any CatalogFileDisplay]
    /// Replace files in the way even when Vitrine did not write them (`--force`).
    package let force: Bool

    package init(outputDirectory: String, displays: [any CatalogFileDisplay], force: Bool = false) {
        self.outputDirectory = outputDirectory
        self.displays = displays
        self.force = force
    }

    /// The displays for a set of formats, in the order given.
    package init(outputDirectory: String, formats: [CatalogFormat], templates: TemplateLibrary, force: Bool = false) {
        let displays: [any CatalogFileDisplay] = formats.map { format in
            switch format {
            case .html: HTMLDisplay(templates: templates)
            case .markdown: MarkdownDisplay(templates: templates)
            case .csv: CSVDisplay()
            }
        }
        self.init(outputDirectory: outputDirectory, displays: displays, force: force)
    }

    package func displayCatalog(viewModel: CatalogViewModel) throws -> WrittenCatalog {
        let folder = try OutputFolder(path: outputDirectory, force: force)
        do {
            for display in displays {
                try display.write(viewModel, to: folder)
            }
            let counts = folder.counts
            return WrittenCatalog(
                paths: try folder.commit(displayRoot: outputDirectory), rendered: counts.rendered, kept: counts.kept)
        } catch {
            folder.discard()
            throw error
        }
    }
}
