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
}

extension CatalogDisplayLogic {
    /// Writes a catalog whose objects are all in place, as one part.
    @discardableResult
    package func displayCatalog(viewModel: CatalogViewModel) throws -> WrittenCatalog {
        do {
            try displayStart(viewModel)
            try displayPart(viewModel.sections.map(\.objects))
            return try displayEnd()
        } catch {
            displayAbandoned()
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
