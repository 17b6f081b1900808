import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineOutput

/// The displays write a large catalog a part at a time (issue 13, item 5): each part's display strings are made
/// when it is written and let go after, and the files are those of the catalog written whole.
@Suite struct CatalogPartsTests {
    /// 6,300 objects (past the Markdown catalog's split) under makers of five letters and no maker: ids repeat
    /// across sections and parts (so detail page names are claimed across parts), and titles share words (so
    /// search shards gather objects of every part).
    private static let response: HarvestedCollection = {
        let makers: [String?] = [
            "Aelbert Cuyp", "Anthonie van Dyck", "Ferdinand Bol", "Jan Steen", "Émile Bernard",
            "葛飾北斎", "Rembrandt van Rijn", nil,
        ]
        let sections = makers.enumerated().map { number, maker in
            ArtistSection(
                maker: maker,
                objects: (0..<(number == 7 ? 700 : 800)).map { index in
                    // Every fifth id is shared by every section: its page names are numbered across parts.
                    let id = index % 5 == 0 ? "SK-A-\(index)" : "SK-\(number)-\(index)"
                    return Seeds.object(
                        id, maker, title: "Portret \(index % 3 == 0 ? "study" : "landscape") \(index)",
                        image: Seeds.google("p\(number)-\(index)"))
                })
        }
        return Seeds.response(sections)
    }()

    private let presenter: ExportPresenter = {
        let spy = CatalogDisplayLogicSpy()
        return ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
    }()

    /// Pushes `response` into `writer` as an export does, one section per part.
    private func push(
        _ response: HarvestedCollection, into writer: CatalogWriter, objectsPerPart: Int = 1
    ) async throws {
        let spy = CatalogDisplayLogicSpy()
        var response = response
        try await response.push(
            to: ExportPresenter(thumbnailWidth: 400, catalogDisplay: writer, progressDisplay: spy),
            objectsPerPart: objectsPerPart)
    }

    @Test(arguments: [1, HarvestedCollection.objectsPerPart])
    func `a catalog pushed a part at a time is the catalog written whole, file for file`(objectsPerPart: Int)
        async throws
    {
        let parted = try TemporaryFolder()
        let writer = CatalogWriter(
            outputDirectory: parted.path, formats: CatalogFormat.allCases, templates: try TemplateLibrary())
        try await push(Self.response, into: writer, objectsPerPart: objectsPerPart)

        // Every format written from the whole view model as one part.
        let whole = try TemporaryFolder()
        let folder = try await OutputFolder.opened(path: whole.path)
        try await writer.displays.write(presenter.makeViewModel(response: Self.response), to: folder)
        _ = try await folder.commit(displayRoot: whole.path)

        let partedFiles = try TemporaryFolder.files(in: parted.url)
        let wholeFiles = try TemporaryFolder.files(in: whole.url)
        #expect(partedFiles.count > 6_300, "a detail page per object, and the rest")
        #expect(partedFiles.keys.sorted() == wholeFiles.keys.sorted())
        let differing = partedFiles.keys.filter { partedFiles[$0] != wholeFiles[$0] }.sorted()
        #expect(differing.isEmpty, "files that differ: \(differing.prefix(5))")
        let hasLetterFile = partedFiles["/catalog/a.md"] != nil
        let hasNumberedName = partedFiles["/objects/sk-a-0-8.html"] != nil
        #expect(hasLetterFile)
        #expect(hasNumberedName, "the eighth claim of a shared id's name")
    }

    @Test func `the formats write a letter's makers at a time, in catalog order, each section once`() async throws {
        let viewModel = try await presenter.makeViewModel(response: Self.response)
        let recorder = PartRecorder()
        let folder = try TemporaryFolder()
        let templates = try TemplateLibrary()
        let writer = CatalogWriter(
            outputDirectory: folder.path,
            displays: [
                HTMLDisplay(templates: templates), MarkdownDisplay(templates: templates), CSVDisplay(), recorder,
            ])
        try await push(Self.response, into: writer)

        let ranges = recorder.written.current
        let letters = viewModel.sections.map(\.letter)
        // A, B, F, J, the non-Latin maker under #, R, and the unknown maker: one part each.
        #expect(ranges.count == Set(letters).count)
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == viewModel.sections.count)
        for (earlier, later) in zip(ranges, ranges.dropFirst()) {
            #expect(earlier.upperBound == later.lowerBound, "parts follow one another without gap or overlap")
        }
        for range in ranges { #expect(Set(range.map { letters[$0] }).count == 1, "one letter per part") }
        let largest = ranges.map { $0.reduce(0) { $0 + viewModel.sections[$1].objectCount } }.max()
        #expect(largest == 1_600, "no part holds more than its letter's objects")
    }

    @Test(arguments: [1, 4])
    func `a section the store cannot read fails the run, stops the reading and keeps the catalog`(
        failing: Int
    ) async throws {
        let folder = try TemporaryFolder()
        let writer = CatalogWriter(
            outputDirectory: folder.path, formats: CatalogFormat.allCases, templates: try TemplateLibrary())
        try await push(Self.response, into: writer)
        let before = try ["index.html", "catalog.md", "collection.csv"].map { try folder.read($0) }

        // Each section after the first is read while the writers write the ones before it.
        let store = StoredStub(Self.response.sections) { number throws(ExportError) in
            if number == failing { throw ExportError(.store("cannot read section \(number) of the store")) }
        }
        var stored = Self.response
        stored.sections = []
        stored.stored = store
        await #expect {
            try await push(stored, into: writer)
        } throws: { error in
            "\(error)".contains("cannot read section \(failing) of the store")
        }
        #expect(store.reads.current == failing + 1, "no section is read after the one that failed")
        #expect(try ["index.html", "catalog.md", "collection.csv"].map { try folder.read($0) } == before)
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.url.deletingLastPathComponent().path)
        let staging = ".\(folder.url.lastPathComponent)\(OutputFolder.stagingInfix)"
        #expect(!beside.contains { $0.hasPrefix(staging) }, "no staging folder is left behind: \(beside)")
    }

    @Test func `sections handed over in another order than the outline's fail the run`() async throws {
        let viewModel = try await presenter.makeViewModel(
            response: Seeds.response([
                ArtistSection(maker: "Jan Steen", objects: [Seeds.object("A-1", "Jan Steen")]),
                ArtistSection(maker: "Frans Hals", objects: [Seeds.object("B-1", "Frans Hals")]),
            ]))
        let folder = try TemporaryFolder()
        let writer = CatalogWriter(outputDirectory: folder.path, formats: [.csv], templates: try TemplateLibrary())
        try await writer.displayStart(viewModel)
        await #expect {
            try await writer.displayPart(viewModel.sections.reversed().map(\.objects))
        } throws: { error in
            "\(error)".contains("1 objects of Jan Steen where its outline has 1 of Frans Hals")
        }
        await writer.displayAbandoned()
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("collection.csv").path))
    }

    @Test func `each format writes the parts in order while the next sections are read`() async throws {
        let viewModel = try await presenter.makeViewModel(response: Self.response)
        let whole = try TemporaryFolder()
        _ = try await CatalogWriter(
            outputDirectory: whole.path, formats: CatalogFormat.allCases, templates: try TemplateLibrary()
        ).displayCatalog(viewModel: viewModel)

        // The first part's writer holds on until the store is read for the second part: it is read while the
        // first is written, or never (and the writer gives up waiting).
        let ranges = CatalogPart.ranges(of: viewModel)
        #expect(ranges.count > 2)
        let secondRead = Gate()
        // Sections are read in catalog order, one per part pushed.
        let store = StoredStub(Self.response.sections) { number throws(ExportError) in
            if number == ranges[1].lowerBound { secondRead.open(inTime: true) }
        }
        var stored = Self.response
        stored.sections = []
        stored.stored = store
        let recorder = PartRecorder(waitingOn: secondRead, in: ranges[0])
        let folder = try TemporaryFolder()
        let templates = try TemplateLibrary()
        try await push(
            stored,
            into: CatalogWriter(
                outputDirectory: folder.path,
                displays: [
                    HTMLDisplay(templates: templates), MarkdownDisplay(templates: templates), CSVDisplay(), recorder,
                ]))
        #expect(recorder.waited.current == true, "the second part was read while the first was written")
        #expect(recorder.written.current == ranges, "every part, in catalog order")
        for file in ["index.html", "catalog.md", "collection.csv", "search/manifest.js"] {
            #expect(try folder.read(file) == whole.read(file), "\(file)")
        }
    }

    @Test func `a small catalog is one part, with the index showing every card`() async throws {
        let viewModel = try await presenter.makeViewModel(response: Seeds.catalogResponse)
        let recorder = PartRecorder()
        let folder = try TemporaryFolder()
        try await push(
            Seeds.catalogResponse,
            into: CatalogWriter(
                outputDirectory: folder.path, displays: [HTMLDisplay(templates: try TemplateLibrary()), recorder]))
        #expect(recorder.written.current == [0..<viewModel.sections.count])
        #expect(try folder.read("index.html").contains("The Night Watch"), "the inline cards have their objects")
    }

    @Test func `search entries kept in a scratch file make the shards entries in memory make`() async throws {
        let model = try await presenter.makeViewModel(response: Self.response)
        let inMemory = try await SearchIndex(model)
        var spilled = SearchIndex(entries: SpilledRecords(inMemory: 10_000, readBetweenReleases: 50_000))
        try spilled.add(model, sections: model.sections.indices)
        try await spilled.finish()
        #expect(spilled.spills > 50, "the entries went to the scratch file ten kilobytes at a time")
        #expect(inMemory.spills == 0)
        let scripts = try await inMemory.shardScripts()
        #expect(scripts.count > 5)
        await #expect(try spilled.shardScripts().map(\.1) == scripts.map(\.1))
        #expect(spilled.manifestScript() == inMemory.manifestScript())
    }

    @Test func `a letter file written a megabyte at a time is the page rendered whole, and kept when unchanged`()
        async throws
    {
        let objects = (0..<30_000).map { Seeds.object("SK-C-\($0)", "Jan Steen", title: "Tavern scene \($0)") }
        let model = try await presenter.makeViewModel(
            response: Seeds.response([ArtistSection(maker: "Jan Steen", objects: objects)]))
        let folder = try TemporaryFolder()
        let templates = try TemplateLibrary()
        let writer = CatalogWriter(outputDirectory: folder.path, formats: [.markdown], templates: templates)
        try await writer.displayCatalog(viewModel: model)
        let letter = try folder.read("catalog/j.md")
        #expect(letter.utf8.count > 2 << 20, "written in several pieces")

        let sections = MarkdownDisplay.sections(of: model, ArtistPageNames.defaultCardsPerPage, root: "../")
        let whole = try templates.renderText(
            "markdown/letter.md",
            MarkdownLetter(
                title: model.title, label: "J", countLabel: GalleryPlan.makersLabel(model.sections[...]),
                sections: sections))
        #expect(letter == whole)

        let again = try await writer.displayCatalog(viewModel: model)
        #expect(
            again.kept == 2 && again.rendered == 0, "the letter and the contents are kept: \(again)")
        #expect(try folder.read("catalog/j.md") == whole)

        // A letter the user deleted is written again.
        try FileManager.default.removeItem(atPath: folder.url.appendingPathComponent("catalog/j.md").path)
        let rewritten = try await writer.displayCatalog(viewModel: model)
        #expect(rewritten.kept == 1 && rewritten.rendered == 1, "\(rewritten)")
        #expect(try folder.read("catalog/j.md") == whole)
    }

    @Test func `a letter past the objects a file holds is cut between makers into numbered files`() {
        func section(_ name: String, _ count: Int) -> CatalogViewModel.DisplayedSection {
            var section = CatalogViewModel.DisplayedSection(
                name: name, slug: name.lowercased(), countLabel: "", isUnknownMaker: false, objects: [],
                objectCount: count)
            section.letter = String(name.prefix(1))
            return section
        }
        let sections = [
            section("Jan", 30), section("Jaap", 30), section("Joost", 50), section("Jules", 5), section("Karel", 10),
            section("Lucas", 100), section("Lotte", 1),
        ]
        let outline = CatalogViewModel(
            title: "T", subtitle: "", institution: "", sourceName: "", objectCount: 226, sectionCount: 7,
            sections: sections)
        let files = MarkdownFile.files(of: outline, objectsPerFile: 60)
        #expect(files.map(\.name) == ["j.md", "j--2.md", "k.md", "l.md", "l--2.md"])
        #expect(files.map(\.sections) == [0..<2, 2..<4, 4..<5, 5..<6, 6..<7])
        #expect(files.map(\.label) == ["J, part 1", "J, part 2", "K", "L, part 1", "L, part 2"])
        #expect(files[1].countLabel == "2 makers, 55 objects")
        #expect(files[3].countLabel == "1 maker, 100 objects", "a maker with more than a file holds has its own")
    }
}

/// A format that writes nothing and notes the parts it is given; on `first`, it waits for `signal` first.
private final class PartRecorder: CatalogFileDisplay, CatalogPartWriter {
    let format = CatalogFormat.csv
    let signal: Gate?
    let first: Range<Int>?
    let written = Locked<[Range<Int>]>([])
    /// Whether the signal came before the writer gave up waiting.
    let waited = Locked<Bool?>(nil)

    init(waitingOn signal: Gate? = nil, in first: Range<Int>? = nil) {
        self.signal = signal
        self.first = first
    }

    func start(_ outline: CatalogViewModel, in folder: OutputFolder) throws(ExportError) -> any CatalogPartWriter {
        self
    }

    func write(_ part: CatalogPart) async throws(ExportError) {
        if let signal, part.sections == first {
            // A minute is only there to end a test that would otherwise never end.
            let giveUp = Task {
                try? await Task.sleep(for: .seconds(60))
                signal.open(inTime: false)
            }
            let inTime = await signal.opened()
            giveUp.cancel()
            waited.withLock { $0 = inTime }
        }
        written.withLock { $0.append(part.sections) }
    }

    func finish() async throws(ExportError) {}
}

/// Opened once: by the awaited event (in time), or by giving up.
private final class Gate: Sendable {
    private let state = Locked<(inTime: Bool?, waiting: [CheckedContinuation<Bool, Never>])>((nil, []))

    func open(inTime: Bool) {
        let waiting = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard state.inTime == nil else { return [] }
            state.inTime = inTime
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume(returning: inTime) }
    }

    /// Whether it was opened in time, once it is open.
    func opened() async -> Bool {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool? in
                if let inTime = state.inTime { return inTime }
                state.waiting.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}

/// A collection store's run over sections held in memory, which calls `onRead` with each read's number (from 0).
private final class StoredStub: StoredSections {
    let held: [ArtistSection]
    let reads = Locked(0)
    let onRead: @Sendable (Int) throws(ExportError) -> Void

    init(_ sections: [ArtistSection], onRead: @escaping @Sendable (Int) throws(ExportError) -> Void) {
        held = sections
        self.onRead = onRead
    }

    func sections() throws(ExportError) -> [(maker: String?, count: Int)] {
        held.map { ($0.maker, $0.objects.count) }
    }

    func objects(maker: String?, count: Int) throws(ExportError) -> [ArtObject] {
        let number = reads.withLock { reads in
            defer { reads += 1 }
            return reads
        }
        try onRead(number)
        return held.first { $0.maker == maker }?.objects ?? []
    }

    func bundledImageURLs() throws(ExportError) -> [String] { [] }

    func sortNames() throws(ExportError) -> [String: String] { [:] }
}
