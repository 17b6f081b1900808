/// A kept harvest as the Interactor holds it until it is pushed to the Presenter: its sections in memory (no
/// collection store), or the run's collection in the store, read a section at a time as it is pushed.
package struct HarvestedCollection: Sendable {
    /// The source the objects came from.
    package var source: SourceDescriptor
    /// Sections ordered by maker, each in `CatalogOrder`, when the run held its collection in memory.
    package var sections: [ArtistSection]
    /// The run's collection in the collection store; `sections` is empty then.
    package var stored: (any StoredSections)?
    package var statistics: ExportStatistics
    /// The name the repository gives itself, for a source that stands for any repository.
    package var repositoryName: String?

    package init(
        source: SourceDescriptor, sections: [ArtistSection], statistics: ExportStatistics,
        stored: (any StoredSections)? = nil
    ) {
        self.source = source
        self.sections = sections
        self.statistics = statistics
        self.stored = stored
    }

    /// Objects pushed to the Presenter at a time: each part's objects are read (or taken from memory) just before
    /// they go, and let go with their part, so the collection is never held twice over.
    package static let objectsPerPart = 5_000

    /// Pushes the collection to `presenter`: its start, its sections in catalog order a part at a time (whole
    /// sections, at least `objectsPerPart` objects unless the last), then its end. A failure on the way has the
    /// displays drop what they began. Its sections are taken out of it as they go (a copy of them kept anywhere
    /// would keep every object until the end).
    package mutating func push(
        to presenter: any ExportPresentationLogic, objectsPerPart: Int = Self.objectsPerPart
    ) async throws {
        let source = self.source
        let statistics = self.statistics
        let repositoryName = self.repositoryName
        var sections = try SectionSource(taking: &self)
        let order = SectionOrder.order(sections.counts, sortNames: sections.sortNames)
        do {
            try await presenter.presentStart(
                CatalogStart(
                    source: source, sections: order.map { sections.counts[$0] },
                    bundledImageURLs: sections.bundledURLs, sortNames: sections.sortNames,
                    repositoryName: repositoryName))
            var part: [ArtistSection] = []
            var objects = 0
            for (position, index) in order.enumerated() {
                part.append(ArtistSection(maker: sections.counts[index].maker, objects: try sections.take(index)))
                objects += sections.counts[index].count
                if objects >= objectsPerPart || position + 1 == order.count {
                    var handed: [ArtistSection] = []
                    swap(&handed, &part)
                    try await presenter.presentPart(consume handed)
                    objects = 0
                }
            }
            try await presenter.presentEnd(source: source, statistics: statistics)
        } catch {
            await presenter.presentAbandoned()
            throw error
        }
    }
}

/// Where a kept collection's sections come from: memory, or the collection store. Each section's objects are taken
/// once.
private struct SectionSource {
    /// Every section's maker (`nil`: no known maker, at most one such section) and object count, in no order.
    let counts: [(maker: String?, count: Int)]
    /// The image URLs of the objects whose pictures are bundled with the source.
    let bundledURLs: [String]
    /// The name each section files under, by its maker, where its makers have a sort name.
    let sortNames: [String: String]
    /// The sections held in memory, each emptied as it is taken.
    private var held: [[ArtObject]]
    private let stored: (any StoredSections)?

    init(taking collection: inout HarvestedCollection) throws(ExportError) {
        if let stored = collection.stored {
            self.stored = stored
            counts = try stored.sections()
            bundledURLs = try stored.bundledImageURLs()
            sortNames = try stored.sortNames()
            held = []
            return
        }
        stored = nil
        var known: [(maker: String?, count: Int)] = []
        var objects: [[ArtObject]] = []
        var unknown: [ArtObject] = []
        var all: [ArtistSection] = []
        swap(&all, &collection.sections)
        bundledURLs = all.lazy.flatMap(\.objects).compactMap { object in
            guard let image = object.image, image.sizing == .bundled else { return nil }
            return image.url
        }
        var sortNames: [String: String] = [:]
        for index in all.indices {
            if let maker = all[index].maker {
                let names = all[index].objects.compactMap { $0.details.makers.first?.sortName }
                // The least, as the store reads it: SQLite's `min` compares the bytes.
                if let least = names.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    sortNames[maker] = least
                }
            }
            if all[index].maker == nil {
                // Sources give at most one unknown section; merge defensively all the same.
                unknown += all[index].objects
            } else {
                known.append((all[index].maker, all[index].objects.count))
                objects.append(all[index].objects)
            }
            all[index].objects = []
        }
        if !unknown.isEmpty {
            known.append((nil, unknown.count))
            objects.append(unknown)
        }
        counts = known
        held = objects
        self.sortNames = sortNames
    }

    /// The objects of section `index`, in catalog order: the held ones as they are (the Interactor put them in
    /// `CatalogOrder`), stored ones in the order the store reads them, which is the same.
    mutating func take(_ index: Int) throws(ExportError) -> [ArtObject] {
        guard let stored else {
            var objects: [ArtObject] = []
            swap(&objects, &held[index])
            return objects
        }
        return try stored.objects(maker: counts[index].maker, count: counts[index].count)
    }
}
