import Foundation
import VitrineCore

/// Writes every requested format into a staging folder, then moves them into place together: the
/// `CatalogDisplayLogic` the Presenter talks to.
package struct CatalogWriter: CatalogDisplayLogic {
    package let outputDirectory: String
    package let displays: [any CatalogFileDisplay]
    /// Replace files in the way even when Vitrine did not write them (`--force`).
    package let force: Bool
    /// The bytes of a bundled file the catalogs show (the demo's pictures), by its path in the output folder.
    package let bundledFile: @Sendable (String) -> [UInt8]?
    /// Where the files written are reported (the terminal display).
    package let progressDisplay: (any ProgressDisplayLogic)?

    package init(
        outputDirectory: String, displays: [any CatalogFileDisplay], force: Bool = false,
        bundledFile: @escaping @Sendable (String) -> [UInt8]? = { _ in nil },
        progressDisplay: (any ProgressDisplayLogic)? = nil
    ) {
        self.outputDirectory = outputDirectory
        self.displays = displays
        self.force = force
        self.bundledFile = bundledFile
        self.progressDisplay = progressDisplay
    }

    /// The displays for a set of formats, in the order given.
    package init(
        outputDirectory: String, formats: [CatalogFormat], templates: TemplateLibrary,
        cardsPerPage: Int = GalleryNames.defaultCardsPerPage, force: Bool = false,
        bundledFile: @escaping @Sendable (String) -> [UInt8]? = { _ in nil },
        progressDisplay: (any ProgressDisplayLogic)? = nil
    ) {
        let displays: [any CatalogFileDisplay] = formats.map { format in
            switch format {
            case .html: HTMLDisplay(templates: templates, cardsPerPage: cardsPerPage)
            case .markdown: MarkdownDisplay(templates: templates, cardsPerPage: cardsPerPage)
            case .csv: CSVDisplay()
            }
        }
        self.init(
            outputDirectory: outputDirectory, displays: displays, force: force, bundledFile: bundledFile,
            progressDisplay: progressDisplay)
    }

    package func displayCatalog(viewModel: CatalogViewModel) throws -> WrittenCatalog {
        // The gallery writes a page per object, a page per 200 cards and the search shards; the rest a few files.
        let perObject = displays.contains { $0.format == .html } ? viewModel.objectCount * 51 / 50 : 0
        let folder = try OutputFolder(path: outputDirectory, force: force, expectedFiles: perObject + 1_000)
        do {
            // The formats are written side by side (the gallery's pages on every core besides).
            let failure = FirstFailure()
            let names = SharedNames(viewModel)
            DispatchQueue.concurrentPerform(iterations: displays.count) { index in
                do throws(ExportError) {
                    try displays[index].write(viewModel, names: names, to: folder)
                } catch {
                    failure.record(error)
                }
            }
            if let error = failure.error { throw error }
            // The pictures the catalogs link to relatively, written beside them.
            for path in viewModel.bundledFiles {
                guard let bytes = bundledFile(path) else {
                    throw ExportError(.output("the source has no file \(path), which its objects show"))
                }
                try folder.write(Data(bytes), to: path)
            }
            let counts = folder.counts
            var written = WrittenCatalog(
                paths: try folder.commit(displayRoot: outputDirectory), rendered: counts.rendered, kept: counts.kept)
            written.swappedEntryByEntry = folder.entryByEntryReason
            progressDisplay?.displayWritten(written)
            return written
        } catch {
            folder.discard()
            throw error
        }
    }
}
