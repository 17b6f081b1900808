/// Writes a catalog (all requested formats) from a view model.
package protocol CatalogDisplayLogic: Sendable {
    /// Writes the catalog, and tells the terminal display what it wrote; returns that too, for its callers.
    @discardableResult
    func displayCatalog(viewModel: CatalogViewModel) throws -> WrittenCatalog
}

/// What writing a catalog did.
package struct WrittenCatalog: Sendable, Equatable {
    /// The top-level files and folders written, as the user named the output folder.
    package var paths: [String]
    /// Files rendered and written.
    package var rendered: Int
    /// Files kept from the last export because nothing they show changed.
    package var kept: Int

    package init(paths: [String], rendered: Int = 0, kept: Int = 0) {
        self.paths = paths
        self.rendered = rendered
        self.kept = kept
    }
}

/// Shows progress while harvesting, and the end-of-run report.
package protocol ProgressDisplayLogic: Sendable {
    func displaySummary(viewModel: SummaryViewModel)
    /// The files the catalog display wrote: it reports them here itself, not through the Presenter.
    func displayWritten(_ written: WrittenCatalog)
    /// One line on where the harvest stands; `final` is the last, before the summary.
    func displayProgress(line: String)
}
