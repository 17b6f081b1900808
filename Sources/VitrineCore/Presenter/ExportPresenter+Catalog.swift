import Foundation

// The catalog: sections sorted, objects turned into display strings (on every core, a batch at a time), slugs and
// index letters. The same catalog serves every format.
extension ExportPresenter {
    /// Objects turned into display strings at a time, on every core, before their harvested form is let go.
    static let objectsPerBatch = 20_000

    /// The catalog view model for a response, every section's objects in place (tests, small catalogs; an export
    /// writes `makeCatalog`'s parts instead).
    package func makeViewModel(response: consuming ExportResponse) -> CatalogViewModel {
        let parts = makeCatalog(response: response)
        return parts.part(0..<parts.outline.sections.count)
    }

    /// The catalog for a response, a part at a time: the outline (sections sorted, named, slugged and counted)
    /// now, each part's display strings when the displays ask. The response is consumed: each section's harvested
    /// objects are let go as soon as they are display strings, so the collection is never held twice over.
    package func makeCatalog(response: consuming ExportResponse) -> CatalogParts {
        let descriptor = response.source
        var all: [ArtistSection] = []
        swap(&all, &response.sections)
        let bundledFiles = Set(
            all.lazy.flatMap(\.objects).compactMap { object -> String? in
                guard let image = object.image, image.sizing == .bundled else { return nil }
                let path = WebURL.filterBundledPath(image.url)
                return path.isEmpty ? nil : path
            }
        ).sorted()

        // Sections by maker, each name folded once (not once per comparison: real collections have 50,000 makers).
        var known: [(section: ArtistSection, key: String)] = []
        var unknownObjects: [ArtObject] = []
        for section in all {
            if let maker = section.maker {
                known.append((section, SortKey.key(for: maker)))
            } else {
                unknownObjects += section.objects
            }
        }
        all = []
        known.sort { left, right in
            if left.key != right.key {
                return left.key.unicodeScalars.lexicographicallyPrecedes(right.key.unicodeScalars)
            }
            return (left.section.maker ?? "").unicodeScalars.lexicographicallyPrecedes(
                (right.section.maker ?? "").unicodeScalars)
        }
        let makerCount = known.count
        var named = known.map { ($0.section, Self.oneLine($0.section.maker ?? "", limit: Self.longestName)) }
        known = []
        // Sources give at most one unknown section; merge defensively all the same.
        if !unknownObjects.isEmpty {
            named.append((ArtistSection(maker: nil, objects: unknownObjects), Self.unknownMakerName))
            unknownObjects = []
        }

        var slugs = Slug.Registry(reserved: ["index", "unknown-artist"])
        let sections = named.map { section, name in
            displayed(
                section, name: name, slug: section.maker == nil ? "unknown-artist" : slugs.claim(Slug.make(name)))
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
        outline.bundledFiles = bundledFiles
        let harvested = Locked(named)
        return CatalogParts(outline: outline) { [self] range in
            // Each section's harvested objects are taken out as the part is made: never held twice.
            var taken = harvested.withLock { named in
                range.map { index in
                    let section = named[index]
                    named[index].0.objects = []
                    return section
                }
            }
            // A batch at a time, each batch's harvested objects let go once they are display strings.
            var shown: [[CatalogViewModel.DisplayedObject]] = []
            shown.reserveCapacity(taken.count)
            var start = 0
            while start < taken.count {
                var end = start
                var batch = 0
                repeat {
                    batch += taken[end].0.objects.count
                    end += 1
                } while end < taken.count && batch < Self.objectsPerBatch
                let sections = Array(taken[start..<end])
                for index in start..<end { taken[index].0.objects = [] }
                shown += displayedObjects(sections)
                start = end
            }
            return shown
        }
    }

    private func displayed(_ section: ArtistSection, name: String, slug: String) -> CatalogViewModel.DisplayedSection {
        var displayedSection = CatalogViewModel.DisplayedSection(
            name: name,
            slug: slug,
            countLabel: Self.count(section.objects.count, "object"),
            isUnknownMaker: section.maker == nil,
            objects: [],
            objectCount: section.objects.count
        )
        displayedSection.letter = section.maker == nil ? "?" : Self.letter(of: name)
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
    private func displayedObjects(_ sections: [(ArtistSection, String)]) -> [[CatalogViewModel.DisplayedObject]] {
        let chunkSize = 2_000
        let chunks = sections.indices.flatMap { index in
            stride(from: 0, to: sections[index].0.objects.count, by: chunkSize).map {
                (section: index, range: $0..<min($0 + chunkSize, sections[index].0.objects.count))
            }
        }
        let done = Locked([[CatalogViewModel.DisplayedObject]](repeating: [], count: chunks.count))
        DispatchQueue.concurrentPerform(iterations: chunks.count) { number in
            let (index, range) = chunks[number]
            let (section, name) = sections[index]
            let objects = section.objects[range].map { displayed($0, maker: section.maker == nil ? "" : name) }
            done.withLock { $0[number] = objects }
        }
        // Each section's array is made at its full size once: appending chunk by chunk would grow it by doubling,
        // and a million objects' display strings held twice over at the last growth (measured with heaptrack).
        var chunksDone = done.current
        var result: [[CatalogViewModel.DisplayedObject]] = []
        result.reserveCapacity(sections.count)
        var number = 0
        for section in sections.indices {
            var objects: [CatalogViewModel.DisplayedObject] = []
            objects.reserveCapacity(sections[section].0.objects.count)
            while number < chunks.count, chunks[number].section == section {
                objects.append(contentsOf: chunksDone[number])
                chunksDone[number] = []
                number += 1
            }
            result.append(objects)
        }
        return result
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
