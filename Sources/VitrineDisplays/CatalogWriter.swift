import Foundation
import VitrineCore

/// Writes every requested format into a staging folder, then moves them into place together: the
/// `CatalogDisplayLogic` the Presenter talks to.
package struct CatalogWriter: CatalogDisplayLogic {
    package let outputDirectory: String
    package let displays: [any CatalogFileDisplay]
    /// Replace files in the way even when Vitrine did not write them (`--force`).
    package let force: Bool
    /// A catalog of at least this many files keeps its old version as the next export's staging folder.
    package let spareFrom: Int
    /// The bytes of a bundled file the catalogs show (the demo's pictures), by its path in the output folder.
    package let bundledFile: @Sendable (String) -> [UInt8]?
    /// Where the files written are reported (the terminal display).
    package let progressDisplay: (any ProgressDisplayLogic)?

    package init(
        outputDirectory: String, displays: [any CatalogFileDisplay], force: Bool = false,
        spareFrom: Int = OutputFolder.spareThreshold,
        bundledFile: @escaping @Sendable (String) -> [UInt8]? = { _ in nil },
        progressDisplay: (any ProgressDisplayLogic)? = nil
    ) {
        self.outputDirectory = outputDirectory
        self.displays = displays
        self.force = force
        self.spareFrom = spareFrom
        self.bundledFile = bundledFile
        self.progressDisplay = progressDisplay
    }

    /// The displays for a set of formats, in the order given.
    package init(
        outputDirectory: String, formats: [CatalogFormat], templates: TemplateLibrary,
        cardsPerPage: Int = GalleryNames.defaultCardsPerPage, force: Bool = false,
        spareFrom: Int = OutputFolder.spareThreshold,
        bundledFile: @escaping @Sendable (String) -> [UInt8]? = { _ in nil },
        progressDisplay: (any ProgressDisplayLogic)? = nil
    ) {
        let displays: [any CatalogFileDisplay] = formats.map { format in
            switch format {
            case .html: HTMLDisplay(templates: templates, cardsPerPage: cardsPerPage)
            case .markdown: MarkdownDisplay(templates: templates, cardsPerPage: cardsPerPage)
            case .csv: CSVDisplay()
            }
        }
        self.init(
            outputDirectory: outputDirectory, displays: displays, force: force, spareFrom: spareFrom,
            bundledFile: bundledFile, progressDisplay: progressDisplay)
    }

    package func displayCatalog(_ catalog: CatalogParts) throws -> WrittenCatalog {
        let outline = catalog.outline
        // The gallery writes a page per object, a page per 200 cards and the search shards; the rest a few files.
        let perObject = displays.contains { $0.format == .html } ? outline.objectCount * 51 / 50 : 0
        let folder = try OutputFolder(
            path: outputDirectory, force: force, expectedFiles: perObject + 1_000, keepsSpareFrom: spareFrom)
        do {
            let writers = try displays.map { display throws(ExportError) in try display.start(outline, in: folder) }
            // A part at a time (a letter's makers), its display strings let go once every format has written it.
            var names = ObjectPageNames()
            let ranges = CatalogPart.ranges(of: outline)
            var next: PartAhead?
            defer { next?.wait() }
            for (number, sections) in ranges.enumerated() {
                let made =
                    try next.map { ahead throws(ExportError) in catalog.part(try ahead.part()) }
                    ?? catalog.part(sections)
                next = nil
                // The next part is read on another thread while the writers write this one, when the two are small
                // enough to be held together: reading a part from the store kept one core idle. Its display strings
                // are made here, on every core, once the writers are done: made on the reading thread, they ran on
                // one core while this thread waited (in a night's run, whose writers have little to do). A large
                // catalog's parts are made here, one at a time, as before.
                if number + 1 < ranges.count,
                    Self.objects(in: sections, of: outline) + Self.objects(in: ranges[number + 1], of: outline)
                        <= Self.lookaheadObjects
                {
                    next = PartAhead(catalog, ranges[number + 1])
                }
                let part = CatalogPart(made, sections, names: &names)
                try each(writers) { writer throws(ExportError) in try writer.write(part) }
            }
            try each(writers) { writer throws(ExportError) in try writer.finish() }
            // The pictures the catalogs link to relatively, written beside them.
            for path in outline.bundledFiles {
                guard let bytes = bundledFile(path) else {
                    throw ExportError(.output("the source has no file \(path), which its objects show"))
                }
                try folder.write(Data(bytes), to: path)
            }
            let counts = folder.counts
            var written = WrittenCatalog(
                paths: try folder.commit(displayRoot: outputDirectory), rendered: counts.rendered, kept: counts.kept)
            written.swappedEntryByEntry = folder.entryByEntryReason
            progressDisplay?.displayWritten(written)
            return written
        } catch {
            folder.discard()
            throw error
        }
    }

    /// At most this many objects' display strings are held at once for the part written and the next one made
    /// (about 100 MB): a larger next part is made only once the one before is written.
    static let lookaheadObjects = 100_000

    private static func objects(in sections: Range<Int>, of outline: CatalogViewModel) -> Int {
        sections.reduce(0) { $0 + outline.sections[$1].objectCount }
    }

    /// Runs `body` for every format's writer side by side: the first on this thread, the others on the global
    /// queue. Not in a `concurrentPerform`: libdispatch runs a `concurrentPerform` nested in another one on as many
    /// threads as the outer one leaves per iteration, so on two cores the gallery's pages, which fan out on every
    /// core, were rendered on one thread (perf: the second core idle a third of the rendering).
    private func each(
        _ writers: [any CatalogPartWriter],
        _ body: @escaping @Sendable (any CatalogPartWriter) throws(ExportError) -> Void
    ) throws(ExportError) {
        let failure = FirstFailure()
        let run: @Sendable (any CatalogPartWriter) -> Void = { writer in
            do throws(ExportError) {
                try body(writer)
            } catch {
                failure.record(error)
            }
        }
        let others = DispatchGroup()
        for writer in writers.dropFirst() {
            DispatchQueue.global().async(group: others) { run(writer) }
        }
        if let first = writers.first { run(first) }
        others.wait()
        if let error = failure.error { throw error }
    }
}

/// A part of the catalog read on the global queue while the writers write the part before it.
private final class PartAhead: Sendable {
    private let done = DispatchGroup()
    private let made = Locked<Result<CatalogParts.ReadPart, ExportError>?>(nil)

    init(_ catalog: CatalogParts, _ sections: Range<Int>) {
        done.enter()
        DispatchQueue.global().async { [done, made] in
            let part = Result { () throws(ExportError) in try catalog.read(sections) }
            made.withLock { $0 = part }
            done.leave()
        }
    }

    /// Waits until the part is made.
    func wait() {
        done.wait()
    }

    /// The part, once read, or why it could not be.
    func part() throws(ExportError) -> CatalogParts.ReadPart {
        done.wait()
        guard let part = made.current else {
            throw ExportError(.output("a part of the catalog was not made"))
        }
        return try part.get()
    }
}

extension CatalogPart {
    /// A part of a catalog, its objects' page names claimed after those of every earlier part.
    fileprivate init(_ catalog: CatalogViewModel, _ sections: Range<Int>, names: inout ObjectPageNames) {
        self.init(catalog: catalog, sections: sections, objectPages: names.names(catalog, sections))
    }
}
