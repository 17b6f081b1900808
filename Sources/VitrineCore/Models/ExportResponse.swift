/// What the Interactor hands the Presenter: the sections, and the statistics.
package struct ExportResponse: Sendable {
    /// The source the objects came from (its command-line name).
    package var source: SourceDescriptor
    /// Sections ordered by maker, each in `CatalogOrder`, when the run held its collection in memory (no
    /// collection store).
    package var sections: [ArtistSection]
    /// The run's collection in the collection store, which the Presenter reads a section at a time; `sections` is
    /// empty then.
    package var storedSections: (any StoredSections)?
    package var statistics: ExportStatistics

    package init(
        source: SourceDescriptor, sections: [ArtistSection], statistics: ExportStatistics,
        storedSections: (any StoredSections)? = nil
    ) {
        self.source = source
        self.sections = sections
        self.statistics = statistics
        self.storedSections = storedSections
    }
}
