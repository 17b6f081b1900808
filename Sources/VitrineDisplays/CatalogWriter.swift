import Foundation
import VitrineCore
import VitrineOutput

/// Writes every requested format into a staging folder, then moves them into place together: the
/// `CatalogDisplayLogic` the Presenter talks to.
package struct CatalogWriter: CatalogDisplayLogic {
    package let outputDirectory: String
    package let displays: [any CatalogFileDisplay]
    /// Replace files in the way even when Vitrine did not write them (`--force`).
    package let force: Bool
    /// Remove the files of formats this run does not write (`--remove-other-formats`); else they stay as they are.
    package let removeOtherFormats: Bool
    /// A catalog of at least this many files keeps its old version as the next export's staging folder.
    package let spareFrom: Int
    /// The bytes of a bundled file the catalogs show (the demo's pictures), by its path in the output folder.
    package let bundledFile: @Sendable (String) -> [UInt8]?
    /// The output folder, when `openOutputFolder` opened it as the export started.
    private let opening = Locked<OutputFolder.Opening?>(nil)

    package init(
        outputDirectory: String, displays: [any CatalogFileDisplay], force: Bool = false,
        removeOtherFormats: Bool = false, spareFrom: Int = OutputFolder.spareThreshold,
        bundledFile: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }
    ) {
        self.outputDirectory = outputDirectory
        self.displays = displays
        self.force = force
        self.removeOtherFormats = removeOtherFormats
        self.spareFrom = spareFrom
        self.bundledFile = bundledFile
    }

    /// The displays for a set of formats, in the order given.
    package init(
        outputDirectory: String, formats: [CatalogFormat], templates: TemplateLibrary,
        cardsPerPage: Int = GalleryNames.defaultCardsPerPage, force: Bool = false, removeOtherFormats: Bool = false,
        spareFrom: Int = OutputFolder.spareThreshold,
        bundledFile: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }
    ) {
        let displays: [any CatalogFileDisplay] = formats.map { format in
            switch format {
            case .html: HTMLDisplay(templates: templates, cardsPerPage: cardsPerPage)
            case .markdown: MarkdownDisplay(templates: templates, cardsPerPage: cardsPerPage)
            case .csv: CSVDisplay()
            }
        }
        self.init(
            outputDirectory: outputDirectory, displays: displays, force: force,
            removeOtherFormats: removeOtherFormats, spareFrom: spareFrom,
            bundledFile: bundledFile)
    }

    /// Opens the output folder now, when it holds a catalog (its manifest is there): takes its lock, so that a
    /// folder another export is writing into stops this one before it harvests anything, and reads its manifests
    /// while the harvest runs. A folder with no catalog yet is left as it is until the catalog is written, so that a
    /// failed harvest leaves nothing behind.
    package func openOutputFolder() throws(ExportError) {
        let destination = OutputFolder.destination(outputDirectory)
        let manifest = destination.appendingPathComponent(OutputManifest.fileName).path
        guard FileManager.default.fileExists(atPath: manifest) else { return }
        let opened = try OutputFolder.Opening(destination)
        opening.withLock { $0 = opened }
    }

    package func displayCatalog(_ catalog: CatalogParts) throws -> WrittenCatalog {
        let outline = catalog.outline
        // The gallery writes a page per object, a page per 200 cards and the search shards; the rest a few files.
        let perObject = displays.contains { $0.format == .html } ? outline.objectCount * 51 / 50 : 0
        let opened = opening.withLock { opening in
            defer { opening = nil }
            return opening
        }
        let folder = try OutputFolder(
            path: outputDirectory, force: force, expectedFiles: perObject + 1_000, keepsSpareFrom: spareFrom,
            opening: opened)
        do {
            // A part at a time (a letter's makers), its display strings let go once every format has written it.
            // Each format writes the parts in order on a queue of its own, while this thread reads and makes the
            // next part, as far as `lookaheadObjects` allows. The formats start (their assets written, the last
            // export's fragment indexes read and checked) while the first part is read: one after the other, each
            // would leave a core idle.
            var names = ObjectPageNames()
            let ranges = CatalogPart.ranges(of: outline)
            var first: CatalogPart? = nil
            let writers = try Self.start(displays, outline, in: folder) { () throws(ExportError) in
                guard let sections = ranges.first else { return }
                first = CatalogPart(try catalog.part(sections), sections, names: &names)
            }
            let pipeline = PartPipeline(writers, holding: Self.lookaheadObjects)
            do {
                for sections in ranges {
                    let objects = Self.objects(in: sections, of: outline)
                    try pipeline.waitForRoom(objects)
                    // The first part is let go here: held on, its display strings would outlive its writing.
                    var part: CatalogPart? = nil
                    swap(&part, &first)
                    pipeline.write(
                        try part ?? CatalogPart(try catalog.part(sections), sections, names: &names), objects: objects)
                }
            } catch {
                pipeline.drain()
                throw error
            }
            try pipeline.finish()
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
                paths: try folder.commit(
                    displayRoot: outputDirectory, otherFormat: otherFormat, keepingOtherFormats: !removeOtherFormats),
                rendered: counts.rendered, kept: counts.kept)
            written.notices = folder.notices
            written.copied = folder.copiedFragments
            return written
        } catch {
            folder.discard()
            throw error
        }
    }

    /// The top-level entries each format writes.
    static let entries: [CatalogFormat: Set<String>] = [
        .html: ["index.html", "assets", "artists", "objects", "letters", "search"],
        .markdown: ["catalog.md", "catalog"],
        .csv: ["collection.csv"],
    ]

    /// Whether a top-level entry belongs to a format this run does not write.
    private func otherFormat(_ entry: String) -> Bool {
        guard let format = Self.entries.first(where: { $0.value.contains(entry) })?.key else { return false }
        return !displays.contains { $0.format == format }
    }

    /// At most this many objects' display strings are held at once in parts being written and the part being made:
    /// a larger part is made only once every part before it is written.
    static let lookaheadObjects = 100_000

    /// Starts every display's writer on another thread while `meanwhile` runs on this one; waits for both.
    private static func start(
        _ displays: [any CatalogFileDisplay], _ outline: CatalogViewModel, in folder: OutputFolder,
        meanwhile: () throws(ExportError) -> Void
    ) throws(ExportError) -> [any CatalogPartWriter] {
        let started = Locked<Result<[any CatalogPartWriter], ExportError>>(.success([]))
        let starting = DispatchGroup()
        DispatchQueue.global().async(group: starting) {
            let writers = Result { () throws(ExportError) in
                try displays.map { display throws(ExportError) in try display.start(outline, in: folder) }
            }
            started.withLock { $0 = writers }
        }
        let done = Result { () throws(ExportError) in try meanwhile() }
        // Never past a writer still starting: the folder may be discarded next.
        starting.wait()
        let writers = try started.current.get()
        try done.get()
        return writers
    }

    private static func objects(in sections: Range<Int>, of outline: CatalogViewModel) -> Int {
        sections.reduce(0) { $0 + outline.sections[$1].objectCount }
    }

    /// Runs `body` for every format's writer side by side: the first on this thread, the others on the global
    /// queue. Not in a `concurrentPerform`: libdispatch runs a `concurrentPerform` nested in another one on as many
    /// threads as the outer one leaves per iteration, so on two cores the gallery's pages, which fan out on every
    /// core, would be rendered on one thread.
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

/// The formats' writers, each taking the parts in catalog order on a serial queue of its own. No part waits for
/// every writer to end the one before: that would leave a core idle while the slowest format finishes its part and
/// the next part is read from the store on one thread.
private final class PartPipeline: Sendable {
    private let writers: [(writer: any CatalogPartWriter, queue: DispatchQueue)]
    /// The parts handed to the writers and not yet written by all of them, with their object counts.
    private let inFlight = Locked<[(written: DispatchGroup, objects: Int)]>([])
    /// How many objects' display strings the parts in flight and the one being made may hold.
    private let holding: Int
    private let failure = FirstFailure()

    init(_ writers: [any CatalogPartWriter], holding: Int) {
        self.writers = writers.enumerated().map { number, writer in
            (writer, DispatchQueue(label: "vitrine.catalog-writer.\(number)", qos: .userInitiated))
        }
        self.holding = holding
    }

    /// Waits until a part of `objects` objects can be made beside the parts in flight (at once when none is), and
    /// throws the first writer's failure.
    func waitForRoom(_ objects: Int) throws(ExportError) {
        while let oldest = inFlight.withLock({ parts -> DispatchGroup? in
            parts.removeAll { $0.written.wait(timeout: .now()) == .success }
            let held = parts.reduce(0) { $0 + $1.objects }
            return parts.isEmpty || held + objects <= holding ? nil : parts[0].written
        }) {
            oldest.wait()
        }
        if let error = failure.error { throw error }
    }

    /// Hands a part to every writer.
    func write(_ part: CatalogPart, objects: Int) {
        let written = DispatchGroup()
        for (writer, queue) in writers {
            queue.async(group: written) { [failure] in
                guard !failure.isSet else { return }
                do throws(ExportError) {
                    try writer.write(part)
                } catch {
                    failure.record(error)
                }
            }
        }
        inFlight.withLock { $0.append((written, objects)) }
    }

    /// Waits until every part handed over is written, or given up after a failure.
    func drain() {
        for part in inFlight.withLock({ parts in
            defer { parts = [] }
            return parts
        }) {
            part.written.wait()
        }
    }

    /// `drain`, then the first writer's failure.
    func finish() throws(ExportError) {
        drain()
        if let error = failure.error { throw error }
    }
}

extension CatalogPart {
    /// A part of a catalog, its objects' page names claimed after those of every earlier part.
    fileprivate init(_ catalog: CatalogViewModel, _ sections: Range<Int>, names: inout ObjectPageNames) {
        self.init(catalog: catalog, sections: sections, objectPages: names.names(catalog, sections))
    }
}
