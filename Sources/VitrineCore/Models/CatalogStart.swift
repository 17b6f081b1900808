/// What the Interactor pushes to the Presenter once a harvest is kept, in order: the catalog's start (this), its
/// sections' objects a part at a time (`[ArtistSection]`), and its end (`ExportStatistics`). Plain values: nothing
/// the Presenter receives reads the store.
package struct CatalogStart: Sendable {
    /// The source the objects came from.
    package var source: SourceDescriptor
    /// Every section in catalog order (`SectionOrder`): its maker (`nil`: no known maker, last) and object count.
    package var sections: [(maker: String?, count: Int)]
    /// The image URLs of the objects whose pictures are bundled with the source (the demo's).
    package var bundledImageURLs: [String]
    /// The name a section files under (`Gogh, Vincent van`), by its maker, where its source gives one.
    package var sortNames: [String: String]
    /// The name the repository gives itself (OAI-PMH `repositoryName`), for a source that stands for any
    /// repository: the catalog is named after it.
    package var repositoryName: String?

    package init(
        source: SourceDescriptor, sections: [(maker: String?, count: Int)], bundledImageURLs: [String],
        sortNames: [String: String] = [:], repositoryName: String? = nil
    ) {
        self.source = source
        self.sections = sections
        self.bundledImageURLs = bundledImageURLs
        self.sortNames = sortNames
        self.repositoryName = repositoryName
    }
}
