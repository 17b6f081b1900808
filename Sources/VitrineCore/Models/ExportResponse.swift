/// What the Interactor hands the Presenter: the sections, in order of first appearance, and the statistics.
package struct ExportResponse: Sendable, Equatable {
    /// The source the objects came from (its command-line name).
    package var source: SourceDescriptor
    /// Sections in the order their first object appears in the source (page, then position).
    package var sections: [ArtistSection]
    package var statistics: ExportStatistics

    package init(source: SourceDescriptor, sections: [ArtistSection], statistics: ExportStatistics) {
        self.source = source
        self.sections = sections
        self.statistics = statistics
    }
}
