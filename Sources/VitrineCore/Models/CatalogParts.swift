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
    private let read: @Sendable (Range<Int>) throws(ExportError) -> ReadPart.Making

    /// A part whose objects are read from where they come from, not yet made into display strings.
    package struct ReadPart: Sendable {
        /// Makes the display strings, one array per section.
        typealias Making = @Sendable () -> [[CatalogViewModel.DisplayedObject]]
        package let sections: Range<Int>
        let making: Making
    }

    /// - parameter load: the display strings of a range of sections' objects, one array per section.
    /// - parameter read: reads a range of sections' objects and returns what makes their display strings (which
    ///   may run on every core); by default `load` does both at once.
    package init(
        outline: CatalogViewModel,
        load: @escaping @Sendable (Range<Int>) throws(ExportError) -> [[CatalogViewModel.DisplayedObject]],
        read: (@Sendable (Range<Int>) throws(ExportError) -> @Sendable () -> [[CatalogViewModel.DisplayedObject]])? =
            nil
    ) {
        var outline = outline
        for index in outline.sections.indices { outline.sections[index].objects = [] }
        self.outline = outline
        self.load = load
        if let read {
            self.read = read
        } else {
            self.read = { range throws(ExportError) in
                let objects = try load(range)
                return { objects }
            }
        }
    }

    /// A catalog already made whole (tests, the whole view model): its parts are slices of it.
    package convenience init(whole viewModel: CatalogViewModel) {
        self.init(outline: viewModel) { range in range.map { viewModel.sections[$0].objects } }
    }

    /// The catalog with the objects of `sections` in place, and every other section's empty.
    package func part(_ sections: Range<Int>) throws(ExportError) -> CatalogViewModel {
        placed(try load(sections), in: sections)
    }

    /// Reads the objects of `sections` without making their display strings: a part made in two steps, the
    /// first while the part before is written (it waits on the collection store, one thread), the second with
    /// every core once the writers are done with that part.
    package func read(_ sections: Range<Int>) throws(ExportError) -> ReadPart {
        ReadPart(sections: sections, making: try read(sections))
    }

    /// The catalog with the objects of a part read ahead in place.
    package func part(_ read: ReadPart) -> CatalogViewModel {
        placed(read.making(), in: read.sections)
    }

    private func placed(_ objects: [[CatalogViewModel.DisplayedObject]], in sections: Range<Int>) -> CatalogViewModel {
        var part = outline
        for (index, objects) in zip(sections, objects) { part.sections[index].objects = objects }
        return part
    }
}
