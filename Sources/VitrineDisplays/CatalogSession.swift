import CAllocatorTuning
import Dispatch
import VitrineCore
import VitrineOutput

/// One catalog being written, from `displayStart` to `displayEnd`: its outline, its staging folder, every format's
/// writer, and the parts on their way. The objects come as the Presenter makes them; each part (a letter's makers,
/// as `CatalogPart.ranges` cuts it) goes to the writers once all of its sections are in. Calls come one at a time.
final class CatalogSession: Sendable {
    let outline: CatalogViewModel
    let folder: OutputFolder
    private let formats: [CatalogFormat]
    private let ranges: [Range<Int>]
    /// The writers, started on another thread as the session begins (their assets written, the last export's
    /// fragment indexes read and checked) while the Presenter makes the first part.
    private let starting = DispatchGroup()
    private let started = Locked<Result<[any CatalogPartWriter], ExportError>>(.success([]))
    private let pipeline = Locked<PartPipeline?>(nil)
    private let progress = Locked(Progress())

    private struct Progress: Sendable {
        /// The part being gathered, and its sections' objects so far.
        var part = 0
        var gathered: [[CatalogViewModel.DisplayedObject]] = []
    }

    init(outline: CatalogViewModel, folder: OutputFolder, displays: [any CatalogFileDisplay]) {
        self.outline = outline
        self.folder = folder
        formats = displays.map(\.format)
        ranges = CatalogPart.ranges(of: outline)
        DispatchQueue.global().async(group: starting) { [started] in
            let writers = Result { () throws(ExportError) in
                try displays.map { display throws(ExportError) in try display.start(outline, in: folder) }
            }
            started.withLock { $0 = writers }
        }
    }

    /// Takes the next sections' objects, and hands every part they complete to the writers.
    func take(_ part: consuming [[CatalogViewModel.DisplayedObject]]) throws(ExportError) {
        var state = progress.withLock { state in
            defer { state = Progress() }
            return state
        }
        defer { progress.withLock { $0 = state } }
        for section in consume part {
            let index =
                state.part < ranges.count
                ? ranges[state.part].lowerBound + state.gathered.count : outline.sections.count
            guard index < outline.sections.count else {
                throw ExportError(.output("the catalog came with more than its \(index) sections"))
            }
            let expected = outline.sections[index]
            guard section.count == expected.objectCount,
                section.first.map({ $0.maker == (expected.isUnknownMaker ? "" : expected.name) }) ?? true
            else {
                throw ExportError(
                    .output(
                        "the catalog's section \(index + 1) came with \(section.count) objects of "
                            + "\(section.first?.maker ?? "no maker") where its outline has \(expected.objectCount) "
                            + "of \(expected.name)"))
            }
            if state.gathered.isEmpty {
                // Room for the whole part before its first section is held.
                try writing().waitForRoom(count(in: ranges[state.part]))
            }
            state.gathered.append(section)
            try handOn(&state)
        }
        // Room for the next part before this call returns: the Interactor reads its sections only then, so the
        // parts in flight and the one being read and made stay within the lookahead.
        if state.gathered.isEmpty, state.part < ranges.count {
            try writing().waitForRoom(count(in: ranges[state.part]))
            // The parts written meanwhile left their memory free all over the heap: given back before the next
            // part is read, so that its peak does not stack on pages that hold nothing.
            vitrine_release_free_memory()
        }
    }

    /// Hands on every part whose sections are all in (a part of no sections at once).
    private func handOn(_ state: inout Progress) throws(ExportError) {
        while state.part < ranges.count, state.gathered.count == ranges[state.part].count {
            let sections = ranges[state.part]
            var catalog = outline
            for (index, objects) in zip(sections, state.gathered) { catalog.sections[index].objects = objects }
            state.gathered = []
            let pipeline = try writing()
            if sections.isEmpty { try pipeline.waitForRoom(0) }
            pipeline.write(CatalogPart(catalog: catalog, sections: sections), objects: count(in: sections))
            state.part += 1
        }
    }

    /// Waits until every part is written, then has each format write what needs the whole catalog.
    func finish() throws(ExportError) {
        var state = progress.current
        try handOn(&state)
        guard state.part == ranges.count else {
            throw ExportError(.output("the catalog ended after \(state.part) of its \(ranges.count) parts"))
        }
        let pipeline = try writing()
        try pipeline.finish()
        let writers = try started.current.get()
        try Self.each(writers) { writer throws(ExportError) in try writer.finish() }
        try Self.describe(formats, by: writers, in: folder)
    }

    /// Once every format's files are finished: has each writer describe them (the gallery's data page).
    static func describe(
        _ formats: [CatalogFormat], by writers: [any CatalogPartWriter], in folder: OutputFolder
    ) throws(ExportError) {
        let files = formats.compactMap { format in
            folder.stagedSize(format.fileName).map { CatalogFile(format: format, size: $0) }
        }
        for writer in writers { try writer.describe(files) }
    }

    /// Waits for the writers to stop, and discards the staging folder.
    func abandon() {
        starting.wait()
        pipeline.current?.drain()
        folder.discard()
    }

    /// The writers' pipeline, once every writer has started.
    private func writing() throws(ExportError) -> PartPipeline {
        starting.wait()
        let writers = try started.current.get()
        return pipeline.withLock { pipeline in
            if let pipeline { return pipeline }
            let made = PartPipeline(writers, holding: Self.lookaheadObjects)
            pipeline = made
            return made
        }
    }

    private func count(in sections: Range<Int>) -> Int {
        sections.reduce(0) { $0 + outline.sections[$1].objectCount }
    }

    /// At most this many objects' display strings are held at once in parts being written and the part being read
    /// and made, give or take the push that completes a part: a larger part is read only once every part before it
    /// is written.
    static let lookaheadObjects = 30_000

    /// Runs `body` for every format's writer side by side: the first on this thread, the others on the global
    /// queue. Not in a `concurrentPerform`: libdispatch runs a `concurrentPerform` nested in another one on as many
    /// threads as the outer one leaves per iteration, so on two cores the gallery's pages, which fan out on every
    /// core, would be rendered on one thread.
    static func each(
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
