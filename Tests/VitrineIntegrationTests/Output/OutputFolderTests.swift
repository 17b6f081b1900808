import Foundation
import Testing
import VitrineFiles
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineOutput

/// The output folder: one export at a time, and nothing left behind by a killed one (issue 12, items 3 and 13).
@Suite struct OutputFolderTests {
    @Test func `a second export of the same folder is kept out while the first writes`() async throws {
        let output = try TemporaryFolder()
        let first = try OutputFolder(path: output.path)
        let error = #expect(throws: ExportError.self) { _ = try OutputFolder(path: output.path) }
        #expect(
            error?.description == "another vitrine export is writing into \(output.url.standardizedFileURL.path); "
                + "wait for it to finish, or choose another --output")
        try first.write("a", to: "a.txt")
        _ = try await first.commit(displayRoot: output.path)
        // Free again once the first is done with it. (A process the test runner spawns at that moment may hold a
        // copy of the lock's file descriptor until it execs, so a few tries are allowed.)
        var again: OutputFolder?
        for _ in 0..<1_000 where again == nil { again = try? OutputFolder(path: output.path) }
        #expect(again != nil)
    }

    /// Found by a hostile check: a first export that failed while writing left an empty output folder.
    @Test func `a failed first export leaves no output folder; a folder that was there stays`() async throws {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        let first = try await OutputFolder.opened(path: site.path)
        try first.write("a", to: "a.txt")
        #expect(FileManager.default.fileExists(atPath: site.path))
        first.discard()
        #expect(!FileManager.default.fileExists(atPath: site.path))
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: false)
        let second = try await OutputFolder.opened(path: site.path)
        second.discard()
        #expect(FileManager.default.fileExists(atPath: site.path))
    }

    /// Issue 34, item 13: in a container every run is process 1, so a killed run's staging folder, told by its
    /// process id, was never cleaned. A staging folder is a live run's while that run holds the lock inside it.
    @Test func `a staging folder whose lock nobody holds is removed; one whose run holds it is left alone`()
        async throws
    {
        let parent = try TemporaryFolder()
        let output = parent.url.appendingPathComponent("site")
        let abandoned = parent.url.appendingPathComponent(".site.vitrine-staging-0123456789abcdef")
        let running = parent.url.appendingPathComponent(".site.vitrine-staging-fedcba9876543210")
        let older = output.appendingPathComponent(".vitrine-staging-1")  // an older Vitrine's, by process id
        let otherSite = parent.url.appendingPathComponent(".other.vitrine-staging-0123456789abcdef")
        for folder in [abandoned, running, older, otherSite] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("120 MB of pages".utf8).write(to: folder.appendingPathComponent("index.html"))
        }
        guard case .held(let lock) = FileLock.take(running.path + "/" + OutputFolder.stagingLockName) else {
            Issue.record("the running run's lock could not be taken")
            return
        }
        defer { close(lock) }
        let writer = CatalogWriter(outputDirectory: output.path, displays: [CSVDisplay()])
        let spy = CatalogDisplayLogicSpy()
        let presenter = ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
        _ = try await writer.displayCatalog(viewModel: presenter.makeViewModel(response: Seeds.catalogResponse))
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(!FileManager.default.fileExists(atPath: older.path))
        #expect(FileManager.default.fileExists(atPath: running.path))
        #expect(FileManager.default.fileExists(atPath: otherSite.path), "another output folder's is not this one's")
    }

    /// Found by a hostile check: a folder mounted inside the output folder (a container's volume, `mount --bind`)
    /// left the site with the old catalog, and the next export removed what was in it. Such a folder is refused.
    @Test func `a mount point inside the output folder is found in the mount table, its name unescaped`() {
        let table = """
            22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw
            40 22 8:1 /srv/media /var/www/site/my\\040media rw,relatime - ext4 /dev/sda1 rw
            41 22 0:50 / /var/www/site-other rw - tmpfs tmpfs rw
            42 22 0:51 / /var/www/site rw - tmpfs tmpfs rw
            """
        let site = URL(fileURLWithPath: "/var/www/site")
        #expect(OutputFolder.mountPoints(inside: site, table: table) == ["/var/www/site/my media"])
        #expect(OutputFolder.mountPoints(inside: URL(fileURLWithPath: "/srv"), table: table).isEmpty)
    }

    /// Found by a hostile check: an old catalog left by an exchange whose files of the user's could not be carried
    /// (a mount point, a folder of another account's) was removed by the next export, those files with it, silently.
    @Test func `an old catalog that still holds files of the user's that cannot be carried is kept, and said`()
        async throws
    {
        let parent = try TemporaryFolder()
        let output = parent.url.appendingPathComponent("site")
        let old = parent.url.appendingPathComponent(".site.vitrine-staging-0123456789abcdef")
        // Exchanged (no lock file): the user's `notes/` cannot go where the output folder has a file `notes`.
        try FileManager.default.createDirectory(
            at: old.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: old.appendingPathComponent("notes/todo.txt"))
        try Data("also mine".utf8).write(to: old.appendingPathComponent("letter.txt"))
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("a file".utf8).write(to: output.appendingPathComponent("notes"))
        let spy = CatalogDisplayLogicSpy()
        let presenter = ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
        for _ in 0..<2 {
            let written = try await CatalogWriter(outputDirectory: output.path, displays: [CSVDisplay()])
                .displayCatalog(viewModel: presenter.makeViewModel(response: Seeds.catalogResponse))
            #expect(try String(contentsOf: old.appendingPathComponent("notes/todo.txt"), encoding: .utf8) == "mine")
            #expect(written.notices.contains { $0.contains("could not be carried") && $0.contains("notes/todo.txt") })
            // Never given a lock file: a run killed while it carries would leave it looking never exchanged.
            #expect(!FileManager.default.fileExists(atPath: old.path + "/" + OutputFolder.stagingLockName))
        }
        // What could be carried was.
        #expect(try String(contentsOf: output.appendingPathComponent("letter.txt"), encoding: .utf8) == "also mine")
        // Once nothing of the user's is left in it, it goes.
        try FileManager.default.removeItem(at: old.appendingPathComponent("notes"))
        _ = try await CatalogWriter(outputDirectory: output.path, displays: [CSVDisplay()])
            .displayCatalog(viewModel: presenter.makeViewModel(response: Seeds.catalogResponse))
        #expect(!FileManager.default.fileExists(atPath: old.path))
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
    private func model() async throws -> CatalogViewModel {
        let spy = CatalogDisplayLogicSpy()
        return try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy).makeViewModel(
            response: Seeds.catalogResponse)
    }

    @Test func `a user's file where Vitrine writes is never replaced without --force; one beside it is kept`()
        async throws
    {
        let output = try TemporaryFolder()
        let assets = output.url.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try Data("my style".utf8).write(to: assets.appendingPathComponent("style.css"))
        try Data("PNG".utf8).write(to: assets.appendingPathComponent("logo.png"))
        let writer = CatalogWriter(outputDirectory: output.path, formats: [.html], templates: try TemplateLibrary())
        let error = await #expect(throws: ExportError.self) { _ = try await writer.displayCatalog(viewModel: model()) }
        #expect(
            error?.description
                == "\(output.path)/assets/style.css would be replaced, and Vitrine did not write it; choose another "
                + "--output, move it away, or pass --force")
        #expect(try output.read("assets/style.css") == "my style")
        #expect(!FileManager.default.fileExists(atPath: output.url.appendingPathComponent("index.html").path))

        let forced = CatalogWriter(
            outputDirectory: output.path, formats: [.html], templates: try TemplateLibrary(), force: true)
        _ = try await forced.displayCatalog(viewModel: model())
        #expect(FileManager.default.fileExists(atPath: output.url.appendingPathComponent("index.html").path))
        #expect(try output.read("assets/style.css") != "my style")
        // The logo stood where Vitrine writes nothing: it is carried into the new catalog.
        #expect(try output.read("assets/logo.png") == "PNG")
        // Now Vitrine's: the next export replaces it without asking.
        _ = try await writer.displayCatalog(viewModel: model())
        #expect(try output.read("assets/logo.png") == "PNG")
    }

    @Test func `folders an earlier, larger export wrote are removed by a smaller one; the user's files stay`()
        async throws
    {
        let output = try TemporaryFolder()
        let large = CatalogWriter(
            outputDirectory: output.path,
            displays: [FilesDisplay(files: ["index.html", "letters/letter-a.html", "search/a.js"])])
        _ = try await large.displayCatalog(viewModel: model())
        try Data("mine".utf8).write(to: output.url.appendingPathComponent("notes.txt"))
        let small = CatalogWriter(outputDirectory: output.path, displays: [FilesDisplay(files: ["index.html"])])
        _ = try await small.displayCatalog(viewModel: model())
        let left = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(left == ["index.html", "notes.txt"])
        #expect(ListedManifest.read(ofCatalog: output.url)?.files == ["index.html"])
    }

    /// Issue 34, item 11: `--format csv` after a full export silently deleted the gallery and the Markdown catalog.
    @Test func `formats not asked for stay as they are; removing them takes --remove-other-formats, and is said`()
        async throws
    {
        let parent = try TemporaryFolder()
        let path = parent.url.appendingPathComponent("site").path
        let templates = try TemplateLibrary()
        _ = try await CatalogWriter(outputDirectory: path, formats: CatalogFormat.allCases, templates: templates)
            .displayCatalog(viewModel: model())
        let full = try TemporaryFolder.files(in: URL(fileURLWithPath: path))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent("objects/mine.txt"))

        let csv = try await CatalogWriter(outputDirectory: path, formats: [.csv], templates: templates)
            .displayCatalog(viewModel: model())
        var after = try TemporaryFolder.files(in: URL(fileURLWithPath: path))
        #expect(after.removeValue(forKey: "/objects/mine.txt") == Data("notes".utf8))
        #expect(after == full, "every file as the full export wrote it")
        #expect(csv.paths == ["\(path)/collection.csv"])
        #expect(csv.notices.count == 1)
        #expect(
            csv.notices.first?.hasPrefix(
                "kept \(path)/index.html, \(path)/catalog.md, \(path)/collection.jsonl, \(path)/artists/") == true)

        let removed = try await CatalogWriter(
            outputDirectory: path, formats: [.csv], templates: templates, removeOtherFormats: true
        ).displayCatalog(viewModel: model())
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        // The user's file in a folder Vitrine no longer writes stays, the folder with it.
        #expect(names == ["collection.csv", "objects"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/objects") == ["mine.txt"])
        #expect(removed.notices.first?.hasPrefix("removed \(path)/index.html, \(path)/catalog.md, ") == true)
    }

    /// A manifest an older Vitrine kept in the catalog is still read, and as warily.
    @Test func `a manifest that points outside the folder is ignored`() throws {
        let output = try TemporaryFolder()
        try "# x\n../../etc/passwd\n/etc/hosts\nindex.html\n".write(
            to: output.url.appendingPathComponent(".vitrine-manifest"), atomically: true, encoding: .utf8)
        #expect(ListedManifest.read(ofCatalog: output.url)?.files == ["index.html"])
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
        _ files: [String: String], to path: String, keepsSpareFrom: Int = .max, step: (@Sendable () -> Void)? = nil,
        beforeExchange: (@Sendable () -> Void)? = nil
    ) async throws -> OutputFolder {
        let folder = try OutputFolder(
            path: path, keepsSpareFrom: keepsSpareFrom, commitStep: step, beforeExchange: beforeExchange)
        for (file, contents) in files.sorted(by: { $0.key < $1.key }) { try folder.write(contents, to: file) }
        _ = try await folder.commit(displayRoot: path)
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

    @Test func `a reader at any moment of the commit sees one run's catalog, whole, and the user's README`()
        async throws
    {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        try await Self.export(
            ["index.html": "v1", "objects/a.html": "v1 a", "objects/b.html": "v1 b", "assets/style.css": "v1"],
            to: path)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent("README.md"))
        let old = Self.shown(path)
        let seen = Locked<[[String: String]]>([])
        let folder = try await Self.export(
            ["index.html": "v2", "objects/a.html": "v2 a", "objects/c.html": "v2 c", "letters/letter-a.html": "v2"],
            to: path, step: { seen.withLock { $0.append(Self.shown(path)) } })
        let new = Self.shown(path)
        #expect(new["/README.md"] == "mine" && new["/objects/c.html"] == "v2 c" && new["/objects/b.html"] == nil)
        #expect(folder.notices.isEmpty)
        let steps = seen.withLock { $0 }
        #expect(!steps.isEmpty)
        for (number, step) in steps.enumerated() {
            #expect(step == old || step == new, "at step \(number + 1) the folder was a mix of two runs")
        }
        // The old catalog, set beside the folder for the exchange, is gone, and its records with it; the lock and
        // the new catalog's records beside it stay.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
                == [".site.vitrine-lock", ".site.vitrine-records", "site"])
        let records = try FileManager.default.contentsOfDirectory(atPath: parent.path + "/.site.vitrine-records")
        let live = try #require(CatalogRecords(of: path, output: URL(fileURLWithPath: path)))
        #expect(records == [live.folder.lastPathComponent])
    }

    @Test func `a folder of the user's inside the output is carried into the new catalog in the one exchange`()
        async throws
    {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        try await Self.export(["index.html": "v1"], to: path)
        let docs = URL(fileURLWithPath: path).appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: docs.appendingPathComponent("notes.md"))
        let folder = try await Self.export(["index.html": "v2"], to: path)
        #expect(folder.notices.isEmpty)
        #expect(Self.shown(path) == ["/index.html": "v2", "/docs/notes.md": "notes"])
    }

    /// Issue 34, item 13: a file saved into a catalog folder while the commit ran was deleted with no message.
    @Test func `a file saved into the catalog while it is committed is carried into the new one`() async throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        try await Self.export(["index.html": "v1", "objects/a.html": "v1 a"], to: path)
        let saved = URL(fileURLWithPath: path).appendingPathComponent("objects/saved-meanwhile.txt")
        // Saved into the live catalog after everything was staged, before the exchange.
        try await Self.export(
            ["index.html": "v2", "objects/a.html": "v2 a"], to: path,
            beforeExchange: { try? Data("saved".utf8).write(to: saved) })
        #expect(
            Self.shown(path) == [
                "/index.html": "v2", "/objects/a.html": "v2 a", "/objects/saved-meanwhile.txt": "saved",
            ])
    }

    /// Issue 34, items 5 and 13: the folder refused names the cause and the fix.
    @Test func `an output folder that is a link is refused before anything is written, naming where it points`()
        async throws
    {
        let parent = try TemporaryFolder()
        let real = parent.url.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let link = parent.url.appendingPathComponent("site")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let error = await #expect(throws: ExportError.self) {
            try await Self.export(["index.html": "v1"], to: link.path)
        }
        #expect(
            error?.description
                == "\(link.path) is a symbolic link (to \(real.path)): Vitrine replaces its output folder in one step, "
                + "which it cannot do through a link; give --output the folder itself")
        #expect(try FileManager.default.contentsOfDirectory(atPath: real.path).isEmpty)
    }

    /// Found by a hostile check: `--output /tmp` swapped the whole of /tmp, moving other programs' files.
    @Test func `a shared folder is refused as the output, and nothing in it is moved`() async throws {
        let parent = try TemporaryFolder()
        let shared = parent.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let theirs = shared.appendingPathComponent("someone-elses.txt")
        try Data("theirs".utf8).write(to: theirs)
        #expect(chmod(shared.path, 0o1777) == 0)
        let error = await #expect(throws: ExportError.self) {
            try await Self.export(["index.html": "v1"], to: shared.path)
        }
        #expect(
            error?.description
                == "\(shared.path) is a shared folder (sticky, as /tmp is): Vitrine replaces its output folder in one "
                + "step, moving everything in it; give --output a folder of its own (a new one, such as "
                + "\(shared.path)/gallery)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.path) == ["someone-elses.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.url.path) == ["shared"])
    }

    /// Found by a hostile check: a folder of the user's where a new page goes (`objects/new.html/notes.txt`) was
    /// replaced without `--force`, its files left in a folder the next export removed.
    @Test(arguments: ["objects/new.html", "index.html"])
    func `a folder of the user's where the new catalog has a file stops the export`(page: String) async throws {
        let parent = try TemporaryFolder()
        let path = parent.url.appendingPathComponent("site").path
        _ = try await Self.export(["objects/old.html": "v1", "other.html": "v1"], to: path)
        try FileManager.default.createDirectory(atPath: path + "/" + page, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: path + "/" + page + "/notes.txt"))
        let error = await #expect(throws: ExportError.self) {
            try await Self.export(["objects/old.html": "v2", page: "v2", "other.html": "v2"], to: path)
        }
        #expect(
            error?.description.hasPrefix("\(path)/\(page)/notes.txt would be replaced, and Vitrine did not write it")
                == true, "\(String(describing: error))")
        #expect(try String(contentsOfFile: path + "/" + page + "/notes.txt", encoding: .utf8) == "notes")
        #expect(try String(contentsOfFile: path + "/objects/old.html", encoding: .utf8) == "v1")
    }

    /// Found by a hostile check: `--output /usr` as root was taken, and the swap moved the system's /usr aside.
    @Test(arguments: ["/usr", "/etc", "/var", "/home", "/opt", "/srv", "/usr/"])
    func `a folder of the operating system is refused as the output`(path: String) {
        let error = #expect(throws: ExportError.self) { try OutputFolder.refuseChoice(URL(fileURLWithPath: path)) }
        #expect(
            error?.description.contains("is a folder of the operating system") == true, "\(String(describing: error))")
    }

    /// Found by a review: a system folder named through a link (`~/r -> /`, `--output ~/r/usr`) was taken.
    @Test func `a folder of the operating system named through a link is refused too`() throws {
        let parent = try TemporaryFolder()
        let link = parent.url.appendingPathComponent("root")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/")
        let error = #expect(throws: ExportError.self) {
            try OutputFolder.refuseChoice(link.appendingPathComponent("usr"))
        }
        #expect(
            error?.description.contains("is a folder of the operating system") == true, "\(String(describing: error))")
    }

    @Test func `a folder of its own inside a system folder is an output like any other`() throws {
        try OutputFolder.refuseChoice(URL(fileURLWithPath: "/srv/www/gallery"))
        try OutputFolder.refuseChoice(URL(fileURLWithPath: "/var/www/html"))
    }

    /// Issue 34, item 10: entries Vitrine no longer writes were deleted through a link to the user's own folder.
    @Test func `a link the user put where Vitrine writes is refused, and nothing is written or deleted through it`()
        async throws
    {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        let theirs = parent.url.appendingPathComponent("their-assets")
        try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true)
        for name in ["style.css", "old.css", "logo.png"] {
            try Data("theirs \(name)".utf8).write(to: theirs.appendingPathComponent(name))
        }
        // Two exports, so that the spare catalog is in play too.
        for version in ["v1", "v2"] {
            try await Self.export(
                ["index.html": version, "assets/style.css": version, "assets/old.css": version], to: path,
                keepsSpareFrom: 1)
        }
        let assets = URL(fileURLWithPath: path).appendingPathComponent("assets")
        try FileManager.default.removeItem(at: assets)
        try FileManager.default.createSymbolicLink(at: assets, withDestinationURL: theirs)
        let error = await #expect(throws: ExportError.self) {
            try await Self.export(["index.html": "v3", "assets/style.css": "v3"], to: path, keepsSpareFrom: 1)
        }
        #expect(error?.description.hasPrefix("\(path)/assets would be replaced, and Vitrine did not write it") == true)
        for name in ["style.css", "old.css", "logo.png"] {
            #expect(try String(contentsOf: theirs.appendingPathComponent(name), encoding: .utf8) == "theirs \(name)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: assets.path) == theirs.path)
        #expect(Self.shown(path)["/index.html"] == "v2")
    }
}
