import VitrineCore
import VitrineDisplays

// Shortcuts the tests and the benchmark take, which an export never does.

extension CollectionStore {
    /// Replaces every object (a full harvest) and records its state: the objects added as one run's collection,
    /// which then becomes the stored one in one transaction. Returns what changed.
    package func replaceAll(
        with objects: some Sequence<ArtObject>, state: StoreState
    ) throws(ExportError) -> StoreChanges {
        _ = try startRun(fromStored: false)
        let changes = objects.enumerated().map { position, object in
            RunChange.object(object, SectionIndex.Place(page: 0, position: position))
        }
        _ = try addToRun(changes) { _, _ in true }
        return try commitRun(incremental: false, state: state)
    }

    /// Writes the changed objects and removes the deleted ones (an incremental harvest), as one run on the stored
    /// collection whose records are all written in one transaction. Returns what changed.
    package func apply(
        upserts: [ArtObject], deletions: [String], state: StoreState
    ) throws(ExportError) -> StoreChanges {
        _ = try startRun(fromStored: true)
        let changes =
            upserts.enumerated().map { position, object in
                RunChange.object(object, SectionIndex.Place(page: 0, position: position))
            } + deletions.map { RunChange.deletion($0, datestamp: nil, SectionIndex.Place(page: 1, position: 0)) }
        _ = try addToRun(changes) { _, _ in true }
        return try commitRun(incremental: true, state: state)
    }

    /// Every stored object, read as an export reads them: a run laid over the stored collection, a section at a time
    /// (so never call it while a run is open). Throws when the store holds records its sections do not list.
    package func storedObjects() throws(ExportError) -> [ArtObject] {
        _ = try startRun(fromStored: true)
        let run = try runSections(showing: .all)
        var objects: [ArtObject] = []
        for section in try run.sections() { objects += try run.objects(maker: section.maker, count: section.count) }
        let stored = try storedKeys(notIn: []).count
        guard stored == objects.count else {
            throw ExportError(.store("the store holds \(stored) records, and its sections list \(objects.count)"))
        }
        return objects
    }
}

extension CatalogDisplayLogic {
    /// Writes a catalog whose objects are all in place, as one part.
    @discardableResult
    package func displayCatalog(viewModel: CatalogViewModel) async throws -> WrittenCatalog {
        do {
            try await displayStart(viewModel)
            try await displayPart(viewModel.sections.map(\.objects))
            return try await displayEnd()
        } catch {
            await displayAbandoned()
            throw error
        }
    }
}

extension TemplateLibrary {
    /// Renders a template as text .
    package func renderText(_ name: String, _ context: some TemplateContext) throws(ExportError) -> String {
        String(decoding: try render(name, context), as: UTF8.self)
    }
}

extension CatalogViewModel {
    /// By section, then object: the file name of each object's detail page, as the Presenter named it.
    package var objectPages: [[String]] { sections.map { $0.objects.map(\.pageName) } }
}

extension SectionIndex {
    /// The sections, ordered by maker, each in catalog order, leaving the index as it was.
    package func sections() -> [ArtistSection] {
        var copy = self
        return copy.takeSections()
    }
}

extension CSVCell {
    /// One field, defused and quoted as needed.
    package static func field(_ value: String) -> String {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension CSVDisplay {
    /// The whole file as text, made in memory.
    package static func render(_ viewModel: CatalogViewModel) -> String {
        var bytes: [UInt8] = []
        CSVCell.appendRow(header, to: &bytes)
        for section in viewModel.sections {
            section.objects.forEachInPlace { appendRow($0, source: viewModel.sourceName, to: &bytes) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
