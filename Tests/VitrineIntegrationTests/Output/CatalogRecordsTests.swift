import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOutput

/// Vitrine's records of a catalog are kept beside the output folder, named by the folder's identity, and never
/// published in it (issue 35, item 4).
@Suite struct CatalogRecordsTests {
    private static let files = ["index.html": "index", "objects/a.html": "a", "objects/b.html": "b"]

    /// Writes `files` into the output folder at `path` as one export; returns how many files it kept.
    @discardableResult
    private static func export(
        _ files: [String: String] = files, to path: String, force: Bool = false, keepsSpareFrom: Int = .max
    ) async throws -> Int {
        let folder = try await OutputFolder.opened(path: path, force: force, keepsSpareFrom: keepsSpareFrom)
        for (file, contents) in files.sorted(by: { $0.key < $1.key }) { try folder.write(contents, to: file) }
        _ = try await folder.commit(displayRoot: path)
        return folder.counts.kept
    }

    /// Copies every entry of `from` (the site, its records and its lock beside it) into `to`: every folder a new one.
    private static func copyEntries(of from: TemporaryFolder, to: TemporaryFolder, leaving: String? = nil) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: from.path) where name != leaving {
            try copy(from.url.appendingPathComponent(name), to: to.url.appendingPathComponent(name))
        }
    }

    /// Copies a file or folder as a backup does (`cp -a`): its files' modification times kept. In this process: a
    /// child process would hold, until it execs, a copy of the lock another test's export holds.
    private static func copy(_ from: URL, to: URL) throws {
        try FileManager.default.copyItem(at: from, to: to)
        let files = FileManager.default.enumerator(atPath: from.path).map { Array($0).compactMap { $0 as? String } }
        for relative in [""] + (files ?? []) {
            var status = stat()
            let source = relative.isEmpty ? from.path : from.path + "/" + relative
            guard lstat(source, &status) == 0, status.st_mode & S_IFMT != S_IFLNK else { continue }
            let target = relative.isEmpty ? to.path : to.path + "/" + relative
            #expect(utimensat(AT_FDCWD, target, [status.st_atim, status.st_mtim], AT_SYMLINK_NOFOLLOW) == 0)
        }
    }

    @Test func `the records are beside the site, one folder for the catalog, and nothing of them is in it`()
        async throws
    {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        try await Self.export(to: site.path)
        try await Self.export(to: site.path)
        #expect(
            try TemporaryFolder.files(in: site).keys.sorted() == ["/index.html", "/objects/a.html", "/objects/b.html"])
        let records = try #require(CatalogRecords(of: site.path, output: site))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: CatalogRecords.root(of: site).path)
                == [records.folder.lastPathComponent])
        #expect(ListedManifest.read(ofCatalog: site)?.files.sorted() == Self.files.keys.sorted())
    }

    @Test func `a site restored with its records is Vitrine's as before; without them, or changed, it is not`()
        async throws
    {
        let original = try TemporaryFolder()
        try await Self.export(to: original.url.appendingPathComponent("site").path)

        // Copied with the records beside it (a backup of the folder that holds both): every page kept.
        let restored = try TemporaryFolder()
        try Self.copyEntries(of: original, to: restored)
        let site = restored.url.appendingPathComponent("site")
        #expect(
            CatalogRecords(of: site.path, output: site) != CatalogRecords(of: original.path + "/site", output: site))
        await #expect(try Self.export(to: site.path) == 3)
        await #expect(try Self.export(to: site.path) == 3, "the records are the copy's own now")

        // Copied without them: its pages are not Vitrine's until --force says they are.
        let bare = try TemporaryFolder()
        try Self.copyEntries(of: original, to: bare, leaving: ".site.vitrine-records")
        let bareSite = bare.url.appendingPathComponent("site").path
        let refused = await #expect(throws: ExportError.self) { try await Self.export(to: bareSite) }
        #expect(refused?.description.contains("pass --force") == true, "\(String(describing: refused))")
        try await Self.export(to: bareSite, force: true)
        await #expect(try Self.export(to: bareSite) == 3)

        // Copied with them, but a page is not the one they list (another size): they are not this folder's.
        let changed = try TemporaryFolder()
        try Self.copyEntries(of: original, to: changed)
        let changedSite = changed.url.appendingPathComponent("site")
        try Data("not Vitrine's".utf8).write(to: changedSite.appendingPathComponent("objects/b.html"))
        await #expect(throws: ExportError.self) { try await Self.export(to: changedSite.path) }
        #expect(
            try String(contentsOf: changedSite.appendingPathComponent("objects/b.html"), encoding: .utf8)
                == "not Vitrine's")
    }

    /// Found by review: a backup restored without its records, beside a later run's records of the same pages, was
    /// taken for that run's, since sizes alone were checked; a page changed at the same size stayed stale.
    @Test func `a backup restored without its records is not taken for a later run's pages of the same sizes`()
        async throws
    {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        try await Self.export(to: site.path)
        let backup = try TemporaryFolder()
        try Self.copy(site, to: backup.url.appendingPathComponent("site"))
        let later = Self.files.merging(["objects/b.html": "c"]) { $1 }
        try await Self.export(later, to: site.path)
        try FileManager.default.removeItem(at: site)
        try Self.copy(backup.url.appendingPathComponent("site"), to: site)
        await #expect(throws: ExportError.self) { try await Self.export(later, to: site.path) }
        try await Self.export(later, to: site.path, force: true)
        #expect(try String(contentsOf: site.appendingPathComponent("objects/b.html"), encoding: .utf8) == "c")
        // Copied without their times (`cp` without `-a`), the files are not the ones the records list either.
        let copied = try TemporaryFolder()
        for name in try FileManager.default.contentsOfDirectory(atPath: parent.path) {
            try FileManager.default.copyItem(
                at: parent.url.appendingPathComponent(name), to: copied.url.appendingPathComponent(name))
        }
        await #expect(throws: ExportError.self) { try await Self.export(later, to: copied.path + "/site") }
    }

    /// A page of the site's own changed by hand at its size is not kept for the one the records list.
    @Test func `a page changed at its size is rendered again, not kept`() async throws {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        try await Self.export(to: site.path)
        let page = site.appendingPathComponent("objects/b.html")
        try Data("x".utf8).write(to: page)
        await #expect(try Self.export(to: site.path) == 2)
        #expect(try String(contentsOf: page, encoding: .utf8) == "b")
    }

    @Test func `records of a folder that is gone are removed, and never taken by a folder made later`() async throws {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        try await Self.export(to: site.path)
        // The folder removed by hand and made again with other files at Vitrine's paths.
        try FileManager.default.removeItem(at: site)
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("objects"), withIntermediateDirectories: true)
        try Data("mine, longer".utf8).write(to: site.appendingPathComponent("objects/a.html"))
        await #expect(throws: ExportError.self) { try await Self.export(to: site.path) }
        try await Self.export(to: site.path, force: true)
        let records = try #require(CatalogRecords(of: site.path, output: site))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: CatalogRecords.root(of: site).path)
                == [records.folder.lastPathComponent])
    }

    @Test func `a copy of a site with its spare and records beside it has each folder take its own records`()
        async throws
    {
        let original = try TemporaryFolder()
        let path = original.url.appendingPathComponent("site").path
        let second = Self.files.merging(["objects/b.html": "b, second"]) { $1 }
        try await Self.export(to: path, keepsSpareFrom: 1)
        try await Self.export(second, to: path, keepsSpareFrom: 1)
        let restored = try TemporaryFolder()
        try Self.copyEntries(of: original, to: restored)
        let site = restored.url.appendingPathComponent("site")
        let spare = OutputFolder.spareURL(of: site)
        for catalog in [site, spare] { CatalogRecords.adoptCopy(of: catalog.path, output: site) }
        #expect(ListedManifest.read(ofCatalog: site)?.made["objects/b.html"]?.size == 9)
        #expect(ListedManifest.read(ofCatalog: spare, output: site)?.made["objects/b.html"]?.size == 1)
        // The night after: b's page of the first export comes back, out of the spare.
        await #expect(try Self.export(to: site.path, keepsSpareFrom: 1) == 3)
        #expect(try String(contentsOf: site.appendingPathComponent("objects/b.html"), encoding: .utf8) == "b")
    }

    /// `--output new/deeper/site` makes the folders above the site too, as `mkdir -p` would, with its records beside.
    @Test func `an output folder whose parents do not exist yet is made with them`() async throws {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("new/deeper/site")
        try await Self.export(to: site.path)
        #expect(try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8) == "index")
        #expect(FileManager.default.fileExists(atPath: CatalogRecords.root(of: site).path))
    }

    /// Found by review: through a linked records folder, removing orphans emptied the link's target.
    @Test func `a records folder that is a link or a file is refused, and nothing behind it is touched`() async throws {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        let precious = parent.url.appendingPathComponent("precious")
        try FileManager.default.createDirectory(
            at: precious.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: precious.appendingPathComponent("notes.txt"))
        let root = CatalogRecords.root(of: site)
        try FileManager.default.createSymbolicLink(at: root, withDestinationURL: precious)
        let refused = await #expect(throws: ExportError.self) { try await Self.export(to: site.path) }
        #expect(
            refused?.description == "\(root.path) is a symbolic link: Vitrine keeps its records of \(site.path) there "
                + "and writes nothing through a link; move it away, or choose another --output")
        #expect(try FileManager.default.contentsOfDirectory(atPath: precious.path).sorted() == ["notes.txt", "photos"])
        try FileManager.default.removeItem(at: root)
        try Data().write(to: root)
        await #expect(throws: ExportError.self) { try await Self.export(to: site.path) }
    }

    /// Found by review: a run killed after the old catalog's records went, but before the folder did, left a folder
    /// that the next run took for the user's and carried into the site, stale pages and all.
    @Test func `a catalog being removed is trash first, and the next export carries nothing from it`() async throws {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        try await Self.export(to: site.path)
        let trash = OutputFolder.besideFolder(site, named: OutputFolder.trashInfix + "killed")
        try FileManager.default.createDirectory(
            at: trash.appendingPathComponent("objects"), withIntermediateDirectories: true)
        try Data("gone".utf8).write(to: trash.appendingPathComponent("objects/gone.html"))
        try await Self.export(to: site.path)
        #expect(
            try TemporaryFolder.files(in: site).keys.sorted() == ["/index.html", "/objects/a.html", "/objects/b.html"])
        #expect(!FileManager.default.fileExists(atPath: trash.path))
    }

    /// Found by review: a renamed output folder lost its records, and the next export refused its own pages.
    @Test func `an output folder renamed keeps its records`() async throws {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        try await Self.export(to: site.path)
        let gallery = parent.url.appendingPathComponent("gallery")
        try FileManager.default.moveItem(at: site, to: gallery)
        await #expect(try Self.export(to: gallery.path) == 3)
        let records = try #require(CatalogRecords(of: gallery.path, output: gallery))
        #expect(FileManager.default.fileExists(atPath: records.path(OutputManifest.fileName)))
    }

    /// Found by review: where a file system keeps no birth time, a folder made again at the site's path may get
    /// the old one's inode, and its records; the user's new pages were then replaced unasked. There the records
    /// count only while the folder's files bear them out.
    @Test func `records a folder's files do not bear out are dropped, and the user's pages are refused`() async throws {
        let parent = try TemporaryFolder()
        let site = parent.url.appendingPathComponent("site")
        try await Self.export(to: site.path)
        let records = try #require(CatalogRecords(of: site.path, output: site))
        // A page removed by hand: the others still bear the records out.
        try FileManager.default.removeItem(at: site.appendingPathComponent("objects/a.html"))
        records.removeUnlessBorneOut(site)
        #expect(FileManager.default.fileExists(atPath: records.path(OutputManifest.fileName)))
        // The user's own page where Vitrine's was, another size: the records are not this folder's.
        try Data("my own index page".utf8).write(to: site.appendingPathComponent("index.html"))
        records.removeUnlessBorneOut(site)
        #expect(!FileManager.default.fileExists(atPath: records.path(OutputManifest.fileName)))
        await #expect(throws: ExportError.self) { try await Self.export(to: site.path) }
        #expect(
            try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8) == "my own index page")
    }
}
