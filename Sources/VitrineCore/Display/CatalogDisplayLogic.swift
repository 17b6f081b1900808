/// Writes a catalog (all requested formats) from a view model.
package protocol CatalogDisplayLogic: Sendable {
    /// Writes the catalog; returns the paths written, for the summary.
    func displayCatalog(viewModel: CatalogViewModel) throws -> [String]
}

/// Shows the end-of-run report.
package protocol ProgressDisplayLogic: Sendable {
    func displaySummary(viewModel: SummaryViewModel)
}
