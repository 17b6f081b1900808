import Foundation

// The catalog: sections sorted, objects turned into display strings (on every core, a batch at a time), slugs and
// index letters. The same catalog serves every format.
extension ExportPresenter {
    /// Objects turned into display strings at a time, on every core, before their harvested form is let go.
    static let objectsPerBatch = 20_000

    /// The whole catalog view model, every section's objects in place (tests and the render benchmark; an export
    /// writes `makeCatalog`'s parts instead).
    package func makeViewModel(response: consuming ExportResponse) throws(ExportError) -> CatalogViewModel {
        let parts = try makeCatalog(response: response)
        return try parts.part(0..<parts.outline.sections.count)
    }

    /// The catalog for a response, a part at a time: the outline (sections sorted, named, slugged and counted)
    /// now, each part's display strings when the displays ask. The response is consumed: each section's objects
    /// (held in memory, or read from the collection store) are let go as soon as they are display strings, so the
    /// collection is never held twice over.
    package func makeCatalog(response: consuming ExportResponse) throws(ExportError) -> CatalogParts {
        let descriptor = response.source
        let source = try CatalogSource(response)
        let summaries = source.sections
        // Sections by maker, each name folded once (not once per comparison: real collections have 50,000 makers).
        var known: [(index: Int, key: String)] = summaries.indices.compactMap { index in
            summaries[index].maker.map { (index, SortKey.key(for: $0)) }
        }
        known.sort { left, right in
            if left.key != right.key {
                return left.key.unicodeScalars.lexicographicallyPrecedes(right.key.unicodeScalars)
            }
            return (summaries[left.index].maker ?? "").unicodeScalars.lexicographicallyPrecedes(
                (summaries[right.index].maker ?? "").unicodeScalars)
        }
        let makerCount = known.count
        // The unknown maker's section last (the source has merged any several into one).
        let order = known.map(\.index) + summaries.indices.filter { summaries[$0].maker == nil }
        known = []
        var slugs = Slug.Registry(reserved: ["index", "unknown-artist"])
        let sections = order.map { index in
            let (maker, count) = summaries[index]
            let name = maker.map { Self.oneLine($0, limit: Self.longestName) } ?? Self.unknownMakerName
            return displayed(
                maker: maker, count: count, name: name,
                slug: maker == nil ? "unknown-artist" : slugs.claim(Slug.make(name)))
        }
        let objectCount = sections.reduce(0) { $0 + $1.objectCount }
        var outline = CatalogViewModel(
            title: "\(descriptor.institution) collection",
            subtitle: "\(Self.count(objectCount, "object")) by \(Self.count(makerCount, "maker")), "
                + "from the \(descriptor.name) source",
            institution: descriptor.institution,
            sourceName: descriptor.name,
            objectCount: objectCount,
            sectionCount: sections.count,
            sections: sections
        )
        outline.bundledFiles = Set(source.bundledURLs.map(WebURL.filterBundledPath).filter { !$0.isEmpty }).sorted()
        let names = sections.map(\.name)
        return CatalogParts(
            outline: outline,
            load: { [self] range throws(ExportError) in
                // A batch at a time: each section's objects are read (or taken from memory) just before they become
                // display strings, and let go with their batch.
                var shown: [[CatalogViewModel.DisplayedObject]] = []
                shown.reserveCapacity(range.count)
                var batch: [(ArtistSection, String)] = []
                var batchObjects = 0
                for position in range {
                    let index = order[position]
                    batch.append(
                        (
                            ArtistSection(maker: summaries[index].maker, objects: try source.objects(of: index)),
                            names[position]
                        ))
                    batchObjects += summaries[index].count
                    if batchObjects >= Self.objectsPerBatch || position + 1 == range.upperBound {
                        shown += displayedObjects(batch)
                        batch = []
                        batchObjects = 0
                    }
                }
                return shown
            })
    }

    private func displayed(
        maker: String?, count: Int, name: String, slug: String
    ) -> CatalogViewModel.DisplayedSection {
        var displayedSection = CatalogViewModel.DisplayedSection(
            name: name,
            slug: slug,
            countLabel: Self.count(count, "object"),
            isUnknownMaker: maker == nil,
            objects: [],
            objectCount: count
        )
        displayedSection.letter = maker == nil ? "?" : Self.letter(of: name)
        return displayedSection
    }

    /// The index letter of a maker: the first letter with accents and case folded, `#` when not A–Z.
    package static func letter(of name: String) -> String {
        guard
            let first = SortKey.key(for: name).unicodeScalars.first(where: {
                $0.properties.isAlphabetic || ("0"..."9").contains($0)
            })
        else { return "#" }
        let upper = String(first).uppercased()
        return ("A"..."Z").contains(upper) && upper.count == 1 ? upper : "#"
    }

    /// Every object's display strings, in chunks on every core: they depend on the object and its maker only.
    ///
    /// Each chunk is made where it goes, in its section's memory, and each section's array is made from that memory
    /// at its full size once, by moving. Gathered in arrays of their own, the chunks would be copied into the
    /// section's array (a retain of each of an object's strings, then a release of each); appended chunk by chunk,
    /// the array would grow by doubling, holding every display string twice over at its last growth.
    private func displayedObjects(_ sections: [(ArtistSection, String)]) -> [[CatalogViewModel.DisplayedObject]] {
        let chunkSize = 2_000
        let chunks = sections.indices.flatMap { index in
            stride(from: 0, to: sections[index].0.objects.count, by: chunkSize).map {
                (section: index, range: $0..<min($0 + chunkSize, sections[index].0.objects.count))
            }
        }
        let memory = SectionMemory(counts: sections.map(\.0.objects.count))
        DispatchQueue.concurrentPerform(iterations: chunks.count) { number in
            let (index, range) = chunks[number]
            let (section, name) = sections[index]
            let maker = section.maker == nil ? "" : name
            for position in range {
                memory.initialize(index, position, to: displayed(section.objects[position], maker: maker))
            }
        }
        return sections.indices.map { memory.moveOut($0) }
    }

    /// Uninitialized memory for each section's display strings, which `displayedObjects` fills from several threads
    /// at once, each object's place written by one thread only.
    private final class SectionMemory: @unchecked Sendable {
        private let starts: [UnsafeMutablePointer<CatalogViewModel.DisplayedObject>]
        private let counts: [Int]

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
        return CatalogViewModel.DisplayedObject(
            id: id.count > Self.longestID ? String(id.prefix(Self.longestID - 1)) + "…" : id,
            title: title,
            maker: maker,
            date: date,
            thumbnail: Self.thumbnail(of: object.image, width: thumbnailWidth),
            image: object.image,
            requestedWidth: thumbnailWidth,
            objectURL: WebURL.filter(object.objectURL)
        )
    }
}

/// Where the catalog's sections come from: the response's sections held in memory, or the run's collection in the
/// collection store. Each section's objects are handed over once, in catalog order.
private final class CatalogSource: Sendable {
    /// Every section's maker (`nil`: no known maker, at most one such section) and object count, in no order.
    let sections: [(maker: String?, count: Int)]
    /// The image URLs of the objects whose pictures are bundled with the source.
    let bundledURLs: [String]
    /// The sections held in memory, each emptied as it is handed over.
    private let held: Locked<[[ArtObject]]>
    private let stored: (any StoredSections)?

    init(_ response: consuming ExportResponse) throws(ExportError) {
        if let stored = response.storedSections {
            self.stored = stored
            sections = try stored.sections()
            bundledURLs = try stored.bundledImageURLs()
            held = Locked([])
            return
        }
        stored = nil
        var known: [(maker: String?, count: Int)] = []
        var objects: [[ArtObject]] = []
        var unknown: [ArtObject] = []
        var all: [ArtistSection] = []
        swap(&all, &response.sections)
        bundledURLs = all.lazy.flatMap(\.objects).compactMap { object in
            guard let image = object.image, image.sizing == .bundled else { return nil }
            return image.url
        }
        for index in all.indices {
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
        sections = known
        held = Locked(objects)
    }

    /// The objects of section `index`: the held ones as they are (the Interactor put them in `CatalogOrder`), stored
    /// ones in the order the store reads them, which is the same.
    func objects(of index: Int) throws(ExportError) -> [ArtObject] {
        guard let stored else {
            return held.withLock { held in
                defer { held[index] = [] }
                return held[index]
            }
        }
        return try stored.objects(maker: sections[index].maker, count: sections[index].count)
    }
}
