/// The catalog a part at a time: its outline (every section's name, slug, letter and object count, with no
/// objects), and the display strings of the sections' objects, made when a range of sections is asked for and let
/// go by the displays once that part is written. So a million objects' display strings are never all held: only
/// the part being written.
///
/// Parts are asked for in catalog order, each section once: where the objects come from may let each section's
/// harvested objects go as they become display strings.
package final class CatalogParts: Sendable {
    /// The catalog with every section's `objects` empty; `objectCount` says how many each has.
    package let outline: CatalogViewModel
    private let load: @Sendable (Range<Int>) throws(ExportError) -> [[CatalogViewModel.DisplayedObject]]

    /// - parameter load: the display strings of a range of sections' objects, one array per section.
    package init(
        outline: CatalogViewModel,
        load: @escaping @Sendable (Range<Int>) throws(ExportError) -> [[CatalogViewModel.DisplayedObject]]
    ) {
        var outline = outline
        for index in outline.sections.indices { outline.sections[index].objects = [] }
        self.outline = outline
        self.load = load
    }

    /// A catalog already made whole (tests, the whole view model): its parts are slices of it.
    package convenience init(whole viewModel: CatalogViewModel) {
        self.init(outline: viewModel) { range in range.map { viewModel.sections[$0].objects } }
    }

    /// The catalog with the objects of `sections` in place, and every other section's empty.
    package func part(_ sections: Range<Int>) throws(ExportError) -> CatalogViewModel {
        var part = outline
        for (index, objects) in zip(sections, try load(sections)) { part.sections[index].objects = objects }
        return part
    }
}
