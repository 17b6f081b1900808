import VitrineCore

/// One catalog format: writes its files into the staging output folder.
package protocol CatalogFileDisplay: Sendable {
    /// The format this display writes.
    var format: CatalogFormat { get }
    /// Writes the format's files for a view model. `names` holds what the formats of one export share.
    func write(_ viewModel: CatalogViewModel, names: SharedNames, to folder: OutputFolder) throws(ExportError)
}

extension CatalogFileDisplay {
    /// Writes the format's files for a view model, alone.
    package func write(_ viewModel: CatalogViewModel, to folder: OutputFolder) throws(ExportError) {
        try write(viewModel, names: SharedNames(viewModel), to: folder)
    }
}

/// What the formats of one export share: the gallery's file names, which the Markdown catalog links to, worked out
/// once (for a million objects they are a million strings) by whichever format asks first.
package final class SharedNames: Sendable {
    private let viewModel: CatalogViewModel
    private let made = Locked<[Int: GalleryNames]>([:])

    package init(_ viewModel: CatalogViewModel) {
        self.viewModel = viewModel
    }

    /// The gallery's names at `cardsPerPage` cards a page.
    package func gallery(cardsPerPage: Int) -> GalleryNames {
        made.withLock { made in
            if let names = made[cardsPerPage] { return names }
            let names = GalleryNames(viewModel, cardsPerPage: cardsPerPage)
            made[cardsPerPage] = names
            return names
        }
    }
}
