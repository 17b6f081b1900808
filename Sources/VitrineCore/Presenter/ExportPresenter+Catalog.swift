import Foundation

// The catalog: its outline (sections named, slugged, lettered and counted), then each part's objects as display
// strings, made on every core. The same catalog serves every format.
extension ExportPresenter {
    /// The catalog's outline: every section of `start`, in the order given, with no objects.
    package func makeOutline(_ start: CatalogStart) -> CatalogViewModel {
        var slugs = Slug.Registry(reserved: ["index", "unknown-artist"])
        let sections = start.sections.map { maker, count in
            let name = Self.sectionName(maker)
            return displayed(
                maker: maker, count: count, name: name, filedUnder: maker.flatMap { start.sortNames[$0] } ?? name,
                slug: maker == nil ? "unknown-artist" : slugs.claim(Slug.make(name)))
        }
        let objectCount = sections.reduce(0) { $0 + $1.objectCount }
        let makerCount = start.sections.count { $0.maker != nil }
        let title = Self.oneLine(site.title ?? "", limit: Self.longestName)
        // A repository given by its address alone is named by itself, never by its host.
        let repository = Self.oneLine(start.repositoryName ?? "", limit: Self.longestName)
        let institution = repository.isEmpty ? start.source.institution : repository
        var outline = CatalogViewModel(
            title: !title.isEmpty ? title : repository.isEmpty ? "\(institution) collection" : repository,
            subtitle: "\(NumberText.counted(objectCount, "object")) by \(NumberText.counted(makerCount, "maker"))",
            institution: institution,
            sourceName: start.source.name,
            objectCount: objectCount,
            sectionCount: sections.count,
            sections: sections
        )
        outline.siteDescription = Self.oneLine(site.description ?? "", limit: Self.longestTitle)
        outline.siteURL = site.url.flatMap(SiteIdentity.siteURL) ?? ""
        outline.siteLogo = site.logo ?? ""
        outline.bundledFiles = Set(start.bundledImageURLs.map(WebURL.filterBundledPath).filter { !$0.isEmpty })
            .sorted()
        return outline
    }

    /// A section's heading: its maker on one line, or `Unknown artist`.
    static func sectionName(_ maker: String?) -> String {
        maker.map { oneLine($0, limit: longestName) } ?? unknownMakerName
    }

    /// - parameter filedUnder: the name the section's letter is taken from: its sort name, else its heading.
    private func displayed(
        maker: String?, count: Int, name: String, filedUnder: String, slug: String
    ) -> CatalogViewModel.DisplayedSection {
        var displayedSection = CatalogViewModel.DisplayedSection(
            name: name,
            slug: slug,
            countLabel: NumberText.counted(count, "object"),
            isUnknownMaker: maker == nil,
            objects: [],
            objectCount: count
        )
        displayedSection.letter = maker == nil ? "?" : SortKey.letter(of: filedUnder)
        return displayedSection
    }

    /// Every object's display strings, on every core: they depend on the object and its maker only.
    ///
    /// Each object's strings are made where they go. A section of one chunk or less is made in memory of its own
    /// with the others, and moved into its array at its full size once; a larger section is made in its array's own
    /// memory, a chunk on each core, each harvested object let go as soon as it is made display strings, so that a
    /// maker of many objects is not held twice over. Gathered in arrays of their own, the chunks would be copied
    /// (a retain and a release of each string); appended chunk by chunk, an array would grow by doubling.
    func displayedObjects(_ sections: consuming [ArtistSection]) -> [[CatalogViewModel.DisplayedObject]] {
        let chunkSize = 2_000
        let makers = sections.map { $0.maker == nil ? "" : Self.sectionName($0.maker) }
        let small = sections.indices.filter { sections[$0].objects.count <= chunkSize }
        let smallSections = small.map { sections[$0].objects }
        let memory = SectionMemory(counts: smallSections.map(\.count))
        DispatchQueue.concurrentPerform(iterations: small.count) { number in
            let objects = smallSections[number]
            for position in objects.indices {
                memory.initialize(number, position, to: displayed(objects[position], maker: makers[small[number]]))
            }
        }
        var made = small.indices.map { memory.moveOut($0) }[...]
        var displayedSections: [[CatalogViewModel.DisplayedObject]] = []
        displayedSections.reserveCapacity(sections.count)
        for index in sections.indices {
            guard sections[index].objects.count > chunkSize else {
                displayedSections.append(made.popFirst() ?? [])
                continue
            }
            var objects: [ArtObject] = []
            swap(&objects, &sections[index].objects)
            displayedSections.append(displayed(taking: &objects, maker: makers[index], chunkSize: chunkSize))
        }
        return displayedSections
    }

    /// A large section's display strings, a chunk on each core; `objects` is left holding empty objects.
    private func displayed(
        taking objects: inout [ArtObject], maker: String, chunkSize: Int
    ) -> [CatalogViewModel.DisplayedObject] {
        let count = objects.count
        return objects.withUnsafeMutableBufferPointer { harvested in
            let source = TakenObjects(harvested)
            return [CatalogViewModel.DisplayedObject](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard let start = buffer.baseAddress else { return }
                let memory = SectionMemory(filling: start)
                DispatchQueue.concurrentPerform(iterations: (count + chunkSize - 1) / chunkSize) { chunk in
                    for position in (chunk * chunkSize)..<min(count, (chunk + 1) * chunkSize) {
                        memory.initialize(0, position, to: displayed(source.take(position), maker: maker))
                    }
                }
                initialized = count
            }
        }
    }

    /// A section's harvested objects, each taken out by the one thread that presents it (an empty object, which
    /// holds no memory, left in its place).
    private final class TakenObjects: @unchecked Sendable {
        private let objects: UnsafeMutableBufferPointer<ArtObject>

        init(_ objects: UnsafeMutableBufferPointer<ArtObject>) {
            self.objects = objects
        }

        func take(_ position: Int) -> ArtObject {
            var object = ArtObject(id: "", title: "")
            swap(&object, &objects[position])
            return object
        }
    }

    /// Uninitialized memory for each section's display strings, which `displayedObjects` fills from several threads
    /// at once, each object's place written by one thread only.
    private final class SectionMemory: @unchecked Sendable {
        private let starts: [UnsafeMutablePointer<CatalogViewModel.DisplayedObject>]
        private let counts: [Int]

        /// Fills one section's memory that an array owns.
        init(filling start: UnsafeMutablePointer<CatalogViewModel.DisplayedObject>) {
            starts = [start]
            counts = []
        }

        init(counts: [Int]) {
            self.counts = counts
            starts = counts.map { UnsafeMutablePointer.allocate(capacity: max($0, 1)) }
        }

        func initialize(_ section: Int, _ position: Int, to object: consuming CatalogViewModel.DisplayedObject) {
            (starts[section] + position).initialize(to: object)
        }

        /// The section's objects, every one of which was initialized, moved into an array; the section's memory is
        /// let go.
        func moveOut(_ section: Int) -> [CatalogViewModel.DisplayedObject] {
            let count = counts[section]
            defer { starts[section].deallocate() }
            return [CatalogViewModel.DisplayedObject](unsafeUninitializedCapacity: count) { buffer, initialized in
                buffer.baseAddress?.moveInitialize(from: starts[section], count: count)
                initialized = count
            }
        }
    }

    private func displayed(_ object: ArtObject, maker: String) -> CatalogViewModel.DisplayedObject {
        let oneLineTitle = Self.oneLine(object.title, limit: Self.longestTitle)
        let title = oneLineTitle.isEmpty ? "Untitled" : oneLineTitle
        let date = Self.oneLine(object.date ?? "", limit: Self.longestDate)
        // Ids keep their spacing (they are data), but lose control characters and are capped like the rest.
        let id = PrintableText.clean(object.id)
        var displayed = CatalogViewModel.DisplayedObject(
            id: id.count > Self.longestID ? String(id.prefix(Self.longestID - 1)) + "…" : id,
            title: title,
            maker: maker,
            date: date,
            thumbnail: Self.thumbnail(of: object.image, width: thumbnailWidth),
            thumbnail2xURL: Self.doubleThumbnailURL(of: object.image, width: thumbnailWidth),
            large: Self.largeImage(of: object.image),
            imageURL: Self.fullImageURL(of: object.image),
            objectURL: WebURL.filter(object.objectURL)
        )
        displayed.details = Self.displayedDetails(object)
        return displayed
    }
}
