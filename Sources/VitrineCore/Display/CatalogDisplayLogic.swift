/// Writes a catalog (every requested format) as the Presenter hands it over: the outline, the parts in catalog
/// order, then the end, one call at a time.
package protocol CatalogDisplayLogic: Sendable {
    /// Begins the catalog: `outline` has every section named and counted, with no objects.
    func displayStart(_ outline: CatalogViewModel) async throws
    /// The display strings of the next sections' objects, one array per section, in catalog order.
    func displayPart(_ objects: consuming [[CatalogViewModel.DisplayedObject]]) async throws
    /// Every part was handed over: finishes the catalog and returns what it wrote, which the Presenter reports.
    func displayEnd() async throws -> WrittenCatalog
    /// Drops what `displayStart` and `displayPart` began; the output folder stays as it was.
    func displayAbandoned() async
}

/// What writing a catalog did.
package struct WrittenCatalog: Sendable, Equatable {
    /// The top-level files and folders written, as the user named the output folder.
    package var paths: [String]
    /// Files rendered and written.
    package var rendered: Int
    /// Files kept from the last export because nothing they show changed.
    package var kept: Int
    /// Cards and object lines copied from the last export's pages into pages rendered again, unchanged.
    package var copied = 0
    /// What the user should know of the output folder: formats kept or removed, files carried over, an old catalog
    /// that could not be removed.
    package var notices: [String] = []

    package init(paths: [String], rendered: Int = 0, kept: Int = 0, notices: [String] = []) {
        self.paths = paths
        self.rendered = rendered
        self.kept = kept
        self.notices = notices
    }
}

/// Shows progress while harvesting, and the end-of-run report.
package protocol ProgressDisplayLogic: Sendable {
    func displaySummary(viewModel: SummaryViewModel)
    /// The files the catalog display wrote, as the Presenter words them.
    func displayWritten(_ viewModel: WrittenViewModel)
    /// One line on where the harvest stands; `final` is the last, before the summary.
    func displayProgress(line: String)
    /// A `warning: …` line the user should act on, before the harvest begins (a template that is not used).
    func displayWarning(_ line: String)
}
