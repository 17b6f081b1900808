import CFolderExchange
import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays

/// The output folder: one export at a time, and nothing left behind by a killed one (issue 12, items 3 and 13).
@Suite struct OutputFolderTests {
    @Test func `a second export of the same folder is kept out while the first writes`() throws {
        let output = try TemporaryFolder()
        let first = try OutputFolder(path: output.path)
        let error = #expect(throws: ExportError.self) { _ = try OutputFolder(path: output.path) }
        #expect(
            error?.description == "another vitrine export is writing into \(output.url.standardizedFileURL.path); "
                + "wait for it to finish, or choose another --output")
        try first.write("a", to: "a.txt")
        _ = try first.commit(displayRoot: output.path)
        // Free again once the first is done with it. (A process the test runner spawns at that moment may hold a
        // copy of the lock's file descriptor until it execs, so a few tries are allowed.)
        var again: OutputFolder?
        for _ in 0..<1_000 where again == nil { again = try? OutputFolder(path: output.path) }
        #expect(again != nil)
    }

    @Test func `a killed run's staging folder is removed; a running one's is left alone`() throws {
        let output = try TemporaryFolder()
        var dead: Int32 = 4_000_000
        while kill(dead, 0) == 0 || errno == EPERM { dead -= 1 }
        let abandoned = output.url.appendingPathComponent(".vitrine-staging-\(dead)")
        let running = output.url.appendingPathComponent(".vitrine-staging-1")  // init: always running
        for folder in [abandoned, running] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("120 MB of pages".utf8).write(to: folder.appendingPathComponent("index.html"))
        }
        let writer = CatalogWriter(outputDirectory: output.path, displays: [CSVDisplay()])
        let spy = CatalogDisplayLogicSpy()
        let presenter = ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
        _ = try writer.displayCatalog(viewModel: presenter.makeViewModel(response: Seeds.catalogResponse))
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: running.path))
    }
}

/// Writes the given files, whatever the catalog: a stand-in for a display whose output changes shape.
private struct FilesDisplay: CatalogFileDisplay {
    var files: [String]
    var format: CatalogFormat { .html }

    func start(_ outline: CatalogViewModel, in folder: OutputFolder) throws(ExportError) -> any CatalogPartWriter {
        for file in files { try folder.write("page \(file)", to: file) }
        return FinishedWriter()
    }
}

/// The export owns only the files its manifest lists (issue 12, items 1 and 18).
@Suite struct OutputManifestTests {
    private let model: CatalogViewModel = {
        let spy = CatalogDisplayLogicSpy()
        return ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy).makeViewModel(
            response: Seeds.catalogResponse)
    }()

    @Test func `a user's own assets folder is never replaced without --force, and is named`() throws {
        let output = try TemporaryFolder()
        let logo = output.url.appendingPathComponent("assets/logo.png")
        try FileManager.default.createDirectory(
            at: logo.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("PNG".utf8).write(to: logo)
        let writer = CatalogWriter(outputDirectory: output.path, formats: [.html], templates: try TemplateLibrary())
        let error = #expect(throws: ExportError.self) { _ = try writer.displayCatalog(viewModel: model) }
        #expect(
            error?.description
                == "\(output.path)/assets/logo.png would be replaced, and Vitrine did not write it; choose another "
                + "--output, move it away, or pass --force")
        #expect(try Data(contentsOf: logo) == Data("PNG".utf8))
        #expect(!FileManager.default.fileExists(atPath: output.url.appendingPathComponent("index.html").path))

        let forced = CatalogWriter(
            outputDirectory: output.path, formats: [.html], templates: try TemplateLibrary(), force: true)
        _ = try forced.displayCatalog(viewModel: model)
        #expect(FileManager.default.fileExists(atPath: output.url.appendingPathComponent("index.html").path))
        // Now Vitrine's: the next export replaces it without asking.
        _ = try writer.displayCatalog(viewModel: model)
    }

    @Test func `folders an earlier, larger export wrote are removed by a smaller one; the user's files stay`() throws {
        let output = try TemporaryFolder()
        let large = CatalogWriter(
            outputDirectory: output.path,
            displays: [FilesDisplay(files: ["index.html", "letters/letter-a.html", "catalog/a.md"])])
        _ = try large.displayCatalog(viewModel: model)
        try Data("mine".utf8).write(to: output.url.appendingPathComponent("notes.txt"))
        let small = CatalogWriter(outputDirectory: output.path, displays: [FilesDisplay(files: ["index.html"])])
        _ = try small.displayCatalog(viewModel: model)
        let left = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(left == [".vitrine-lock", ".vitrine-manifest", "index.html", "notes.txt"])
        #expect(OutputManifest.read(in: output.url).files == ["index.html"])
    }

    @Test func `a manifest that points outside the folder is ignored`() throws {
        let output = try TemporaryFolder()
        try "# x\n../../etc/passwd\n/etc/hosts\nindex.html\n".write(
            to: output.url.appendingPathComponent(".vitrine-manifest"), atomically: true, encoding: .utf8)
        #expect(OutputManifest.read(in: output.url).files == ["index.html"])
    }
}

/// A run killed while it swapped entries leaves no catalog without its folders (issue 12, item 3).
@Suite struct OutputRecoveryTests {
    @Test func `a run killed while it swaps its entries is undone: the last export's catalog, whole`() throws {
        // A first export, then a second one killed part way through its commit (the files it left are made by
        // hand as the commit leaves them, since a test cannot kill itself between two renames).
        let output = try TemporaryFolder()
        let spy = CatalogDisplayLogicSpy()
        let model = ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(response: Seeds.catalogResponse)
        _ = try CatalogWriter(
            outputDirectory: output.path, formats: CatalogFormat.allCases, templates: try TemplateLibrary()
        )
        .displayCatalog(viewModel: model)
        let before = try TemporaryFolder.files(in: output.url)
        var dead: Int32 = 3_999_000
        while kill(dead, 0) == 0 || errno == EPERM { dead -= 1 }
        let staging = output.url.appendingPathComponent(".vitrine-staging-\(dead)")
        let manager = FileManager.default
        try manager.createDirectory(at: staging, withIntermediateDirectories: true)
        // What a commit writes before its first swap: the old manifest, and the entries it will swap in order.
        try manager.copyItem(
            at: output.url.appendingPathComponent(".vitrine-manifest"),
            to: staging.appendingPathComponent(".vitrine-manifest"))
        try Data("index.html\nletters\nobjects\nsearch".utf8).write(to: staging.appendingPathComponent(".swap-journal"))
        // index.html was swapped (its old version set aside), then letters/ (new: nothing to set aside); objects/
        // was moved aside and the run died before moving the new one in; search/ was never reached.
        try manager.moveItem(
            at: output.url.appendingPathComponent("index.html"),
            to: staging.appendingPathComponent(".replaced-index.html"))
        try Data("new index".utf8).write(to: output.url.appendingPathComponent("index.html"))
        try manager.createDirectory(at: output.url.appendingPathComponent("letters"), withIntermediateDirectories: true)
        try Data("new letter".utf8).write(to: output.url.appendingPathComponent("letters/letter-a.html"))
        try manager.moveItem(
            at: output.url.appendingPathComponent("objects"), to: staging.appendingPathComponent(".replaced-objects"))
        try manager.createDirectory(at: staging.appendingPathComponent("objects"), withIntermediateDirectories: true)
        try manager.createDirectory(at: staging.appendingPathComponent("search"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: staging.appendingPathComponent("search/new.js"))
        try Data("new manifest with new fingerprints".utf8).write(
            to: output.url.appendingPathComponent(".vitrine-manifest"))

        let folder = try OutputFolder(path: output.path)
        folder.discard()
        #expect(
            try TemporaryFolder.files(in: output.url) == before, "the first export's files and manifest, as they were")
        #expect(!manager.fileExists(atPath: staging.path))
    }

    @Test func `an entry set aside by a killed run comes back when its new version never arrived`() throws {
        let output = try TemporaryFolder()
        var dead: Int32 = 3_999_000
        while kill(dead, 0) == 0 || errno == EPERM { dead -= 1 }
        // The killed run had moved the old objects/ aside and died before moving its own in.
        let aside = output.url.appendingPathComponent(".vitrine-staging-\(dead)/.replaced-objects")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        try Data("old page".utf8).write(to: aside.appendingPathComponent("sk-c-5.html"))
        // Its index.html had arrived: that one is not touched.
        let alsoAside = output.url.appendingPathComponent(".vitrine-staging-\(dead)/.replaced-index.html")
        try Data("old index".utf8).write(to: alsoAside)
        try Data("new index".utf8).write(to: output.url.appendingPathComponent("index.html"))

        let folder = try OutputFolder(path: output.path)
        folder.discard()
        #expect(try output.read("objects/sk-c-5.html") == "old page")
        #expect(try output.read("index.html") == "new index")
        #expect(
            !FileManager.default.fileExists(atPath: output.url.appendingPathComponent(".vitrine-staging-\(dead)").path))
    }
}

/// The catalog takes the old one's place in one step: a reader never sees files of two runs (issue 12, item 3).
@Suite struct OutputExchangeTests {
    /// `site/` inside a temporary folder, so that the staging folder beside it is cleaned up too.
    private static func site(_ parent: TemporaryFolder) -> String {
        parent.url.appendingPathComponent("site").path
    }

    /// Writes `files` (path → contents) as one export and commits it; `step` looks at the folder during the commit.
    @discardableResult
    private static func export(
        _ files: [String: String], to path: String, step: (@Sendable () -> Void)? = nil
    ) throws -> OutputFolder {
        let folder = try OutputFolder(path: path, commitStep: step)
        for (file, contents) in files.sorted(by: { $0.key < $1.key }) { try folder.write(contents, to: file) }
        _ = try folder.commit(displayRoot: path)
        return folder
    }

    /// The folder as a reader sees it: every file but Vitrine's bookkeeping.
    private static func shown(_ path: String) -> [String: String] {
        let files = (try? TemporaryFolder.files(in: URL(fileURLWithPath: path))) ?? [:]
        var shown: [String: String] = [:]
        for (file, data) in files where !file.hasPrefix("/.vitrine") {
            shown[file] = String(decoding: data, as: UTF8.self)
        }
        return shown
    }

    /// Whether this file system can swap two folders in one step (ext4, tmpfs, xfs, btrfs can).
    private static func canExchange(in parent: TemporaryFolder) -> Bool {
        let (first, second) = (parent.url.appendingPathComponent("a").path, parent.url.appendingPathComponent("b").path)
        mkdir(first, 0o755)
        mkdir(second, 0o755)
        defer {
            rmdir(first)
            rmdir(second)
        }
        return vitrine_exchange_paths(first, second) == 0
    }

    @Test func `a reader at any moment of the commit sees one run's catalog, whole, and the user's README`() throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        try Self.export(
            ["index.html": "v1", "objects/a.html": "v1 a", "objects/b.html": "v1 b", "assets/style.css": "v1"],
            to: path)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent("README.md"))
        let old = Self.shown(path)
        let seen = Locked<[[String: String]]>([])
        let folder = try Self.export(
            ["index.html": "v2", "objects/a.html": "v2 a", "objects/c.html": "v2 c", "letters/letter-a.html": "v2"],
            to: path, step: { seen.withLock { $0.append(Self.shown(path)) } })
        let new = Self.shown(path)
        #expect(new["/README.md"] == "mine" && new["/objects/c.html"] == "v2 c" && new["/objects/b.html"] == nil)
        guard Self.canExchange(in: parent) else {
            #expect(folder.entryByEntryReason == "the file system cannot exchange two folders")
            return
        }
        #expect(folder.entryByEntryReason == nil)
        let steps = seen.withLock { $0 }
        #expect(!steps.isEmpty)
        for (number, step) in steps.enumerated() {
            #expect(step == old || step == new, "at step \(number + 1) the folder was a mix of two runs")
        }
        // The old catalog, set beside the folder for the exchange, is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["site"])
    }

    @Test func `a folder of the user's inside the output makes the commit swap entries one by one, and says why`()
        throws
    {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        try Self.export(["index.html": "v1"], to: path)
        let docs = URL(fileURLWithPath: path).appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: docs.appendingPathComponent("notes.md"))
        let folder = try Self.export(["index.html": "v2"], to: path)
        #expect(folder.entryByEntryReason == "docs is a folder of yours")
        #expect(Self.shown(path) == ["/index.html": "v2", "/docs/notes.md": "notes"])
        #expect(
            TerminalDisplay.writtenLine(
                WrittenCatalog(paths: ["site/index.html"], swappedEntryByEntry: "docs is a folder of yours"))
                == "wrote site/index.html; swapped in entry by entry, not as one folder, because docs is a folder of yours"
        )
    }

    @Test func `a process working in the output folder keeps it: entries are swapped, and the process is named`()
        throws
    {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        try Self.export(["index.html": "v1"], to: path)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/bin/sleep")
        server.arguments = ["600"]
        server.currentDirectoryURL = URL(fileURLWithPath: path)
        // Its output is not the test runner's: the runner waits for its output to close.
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // SIGKILL: the runner's children may inherit a mask that blocks SIGTERM.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let folder = try Self.export(["index.html": "v2"], to: path)
        #expect(folder.entryByEntryReason == "process \(server.processIdentifier) (sleep) works in it")
        #expect(Self.shown(path) == ["/index.html": "v2"])
    }

    @Test func `an output folder that is a link is swapped entry by entry, and stays a link`() throws {
        let parent = try TemporaryFolder()
        let real = parent.url.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let link = parent.url.appendingPathComponent("site")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let folder = try Self.export(["index.html": "v1"], to: link.path)
        #expect(folder.entryByEntryReason == "the output folder is a link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(Self.shown(real.path) == ["/index.html": "v1"])
    }

    @Test func `what a killed run left beside the output folder goes; a running run's stays`() throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        try Self.export(["index.html": "v1"], to: path)
        var dead: Int32 = 3_998_000
        while kill(dead, 0) == 0 || errno == EPERM { dead -= 1 }
        let abandoned = parent.url.appendingPathComponent(".site.vitrine-staging-\(dead)")
        let running = parent.url.appendingPathComponent(".site.vitrine-staging-1")  // init: always running
        let otherFolders = parent.url.appendingPathComponent(".other.vitrine-staging-\(dead)")
        for folder in [abandoned, running, otherFolders] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("a whole catalog".utf8).write(to: folder.appendingPathComponent("index.html"))
        }
        try Self.export(["index.html": "v2"], to: path)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: running.path))
        #expect(FileManager.default.fileExists(atPath: otherFolders.path), "another output folder's is not this one's")
        #expect(Self.shown(path) == ["/index.html": "v2"])
    }
}
