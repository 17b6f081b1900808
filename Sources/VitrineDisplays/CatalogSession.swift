import CAllocatorTuning
import VitrineCore
import VitrineOutput

/// One catalog being written, from `displayStart` to `displayEnd`: its outline, its staging folder, every format's
/// writer, and the parts on their way. The objects come as the Presenter makes them; each part (a letter's makers,
/// as `CatalogPart.ranges` cuts it) goes to the writers once all of its sections are in.
///
/// Each writer takes the parts in catalog order in a task of its own per part, which awaits the writer's part
/// before it; no part waits for every writer to end the one before, which would leave a core idle while the slowest
/// format finishes its part and the next part is read from the store.
actor CatalogSession {
    let outline: CatalogViewModel
    let folder: OutputFolder
    private let formats: [CatalogFormat]
    private let ranges: [Range<Int>]
    /// The writers, started as the session begins (their assets written, the last export's fragment indexes read
    /// and checked) while the Presenter makes the first part.
    private let starting: Task<Result<[any CatalogPartWriter], ExportError>, Never>
    /// The part being gathered, and its sections' objects so far.
    private var part = 0
    private var gathered: [[CatalogViewModel.DisplayedObject]] = []
    /// Each writer's last part: the writer's next part awaits it.
    private var lastWritten: [Task<Void, Never>?]
    /// The parts handed to the writers and not yet known to be written by all of them, with their object counts.
    private var inFlight: [(written: [Task<Void, Never>], objects: Int)] = []
    /// The first writer's failure: the parts after it are not written.
    private let failure = FirstFailure()

    init(outline: CatalogViewModel, folder: OutputFolder, displays: [any CatalogFileDisplay]) {
        self.outline = outline
        self.folder = folder
        formats = displays.map(\.format)
        ranges = CatalogPart.ranges(of: outline)
        lastWritten = Array(repeating: nil, count: displays.count)
        starting = Task.detached(priority: .userInitiated) {
            Result { () throws(ExportError) in
                try displays.map { display throws(ExportError) in try display.start(outline, in: folder) }
            }
        }
    }

    /// Takes the next sections' objects, and hands every part they complete to the writers.
    func take(_ sections: consuming [[CatalogViewModel.DisplayedObject]]) async throws(ExportError) {
        for section in consume sections {
            let index = part < ranges.count ? ranges[part].lowerBound + gathered.count : outline.sections.count
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
            if gathered.isEmpty {
                // Room for the whole part before its first section is held.
                try await waitForRoom(count(in: ranges[part]))
            }
            gathered.append(section)
            try await handOn()
        }
        // Room for the next part before this call returns: the Interactor reads its sections only then, so the
        // parts in flight and the one being read and made stay within the lookahead.
        if gathered.isEmpty, part < ranges.count {
            try await waitForRoom(count(in: ranges[part]))
            // The parts written meanwhile left their memory free all over the heap: given back before the next
            // part is read, so that its peak does not stack on pages that hold nothing.
            vitrine_release_free_memory()
        }
    }

    /// Hands on every part whose sections are all in (a part of no sections at once).
    private func handOn() async throws(ExportError) {
        while part < ranges.count, gathered.count == ranges[part].count {
            let sections = ranges[part]
            var catalog = outline
            for (index, objects) in zip(sections, gathered) { catalog.sections[index].objects = objects }
            gathered = []
            part += 1
            let writers = try await started()
            if sections.isEmpty { try await waitForRoom(0) }
            write(CatalogPart(catalog: catalog, sections: sections), objects: count(in: sections), by: writers)
        }
    }

    /// Waits until every part is written, then has each format write what needs the whole catalog.
    func finish() async throws(ExportError) {
        try await handOn()
        guard part == ranges.count else {
            throw ExportError(.output("the catalog ended after \(part) of its \(ranges.count) parts"))
        }
        let writers = try await started()
        await drain()
        try failure.rethrow()
        // The parts' memory is free now, wherever their threads left it: given back before the formats finish.
        vitrine_release_free_memory()
        try await sideBySide(writers) { writer throws(ExportError) in try await writer.finish() }
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
    func abandon() async {
        _ = await starting.value
        await drain()
        folder.discard()
    }

    /// The writers, once every one has started.
    private func started() async throws(ExportError) -> [any CatalogPartWriter] {
        try await starting.value.get()
    }

    /// Waits until a part of `objects` objects can be made beside the parts in flight (at once when none is), and
    /// throws the first writer's failure.
    private func waitForRoom(_ objects: Int) async throws(ExportError) {
        _ = try await started()
        while !inFlight.isEmpty, inFlight.reduce(0, { $0 + $1.objects }) + objects > Self.lookaheadObjects {
            let oldest = inFlight.removeFirst()
            for task in oldest.written { await task.value }
        }
        try failure.rethrow()
    }

    /// Hands a part to every writer, each after its part before.
    private func write(_ part: CatalogPart, objects: Int, by writers: [any CatalogPartWriter]) {
        let written = writers.indices.map { number in
            let writer = writers[number]
            let before = lastWritten[number]
            let task = Task.detached(priority: .userInitiated) { [failure] in
                await before?.value
                await failure.run { () async throws(ExportError) in try await writer.write(part) }
            }
            lastWritten[number] = task
            return task
        }
        inFlight.append((written, objects))
    }

    /// Waits until every part handed over is written, or given up after a failure.
    private func drain() async {
        let parts = inFlight
        inFlight = []
        for part in parts {
            for task in part.written { await task.value }
        }
    }

    private func count(in sections: Range<Int>) -> Int {
        sections.reduce(0) { $0 + outline.sections[$1].objectCount }
    }

    /// At most this many objects' display strings are held at once in parts being written and the part being read
    /// and made, give or take the push that completes a part: a larger part is read only once every part before it
    /// is written.
    static let lookaheadObjects = 30_000
}
