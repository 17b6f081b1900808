/// Writes a catalog (all requested formats) from a view model.
package protocol CatalogDisplayLogic: Sendable {
    /// Writes the catalog; returns the paths written, for the summary.
    func displayCatalog(viewModel: CatalogViewModel) throws -> [String]
}

/// Shows progress while harvesting, and the end-of-run report.
package protocol ProgressDisplayLogic: Sendable {
    func displaySummary(viewModel: SummaryViewModel)
    /// One line on where the harvest stands; `final` is the last, before the summary.
    func displayProgress(line: String)
}
