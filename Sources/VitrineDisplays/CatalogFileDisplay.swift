import VitrineCore

/// One catalog format: writes its files into the staging output folder.
package protocol CatalogFileDisplay: Sendable {
    /// The format this display writes.
    var format: CatalogFormat { get }
    /// Writes the format's files for a view model.
    func write(_ viewModel: CatalogViewModel, to folder: OutputFolder) throws(ExportError)
}
