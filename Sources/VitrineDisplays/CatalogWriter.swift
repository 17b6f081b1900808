import VitrineCore

/// Writes every requested format into a staging folder, then moves them into place together: the
/// `CatalogDisplayLogic` the Presenter talks to.
package struct CatalogWriter: CatalogDisplayLogic {
    package let outputDirectory: String
    package let displays: [any CatalogFileDisplay]

    package init(outputDirectory: String, displays: [any CatalogFileDisplay]) {
        self.outputDirectory = outputDirectory
        self.displays = displays
    }

    /// The displays for a set of formats, in the order given.
    package init(outputDirectory: String, formats: [CatalogFormat], templates: TemplateLibrary) {
        let displays: [any CatalogFileDisplay] = formats.map { format in
            switch format {
            case .html: HTMLDisplay(templates: templates)
            case .markdown: MarkdownDisplay(templates: templates)
            case .csv: CSVDisplay()
            }
        }
        self.init(outputDirectory: outputDirectory, displays: displays)
    }

    package func displayCatalog(viewModel: CatalogViewModel) throws -> [String] {
        let folder = try OutputFolder(path: outputDirectory)
        do {
            for display in displays {
                try display.write(viewModel, to: folder)
            }
            return try folder.commit(displayRoot: outputDirectory)
        } catch {
            folder.discard()
            throw error
        }
    }
}
