import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineOutput

/// A big catalog keeps its old version beside the output folder, and the next export stages into it: only what
/// changed is written, linked or removed (issue 13, item 4), and the live catalog never changes before the
/// exchange (issue 12, item 3).
@Suite struct SpareCatalogTests {
    /// The fingerprint of a file the tests make from these contents.
    private static func made(_ contents: String) -> Fingerprint {
        var fingerprint = Fingerprint()
        fingerprint.combine(contents)
        return fingerprint
    }

    /// `site/` inside a temporary folder, so that the spare beside it is cleaned up too.
    private static func site(_ parent: TemporaryFolder) -> String {
        parent.url.appendingPathComponent("site").path
    }

    /// Stages `files` (path → contents) as one export, keeping a spare from the first file; `beforeCommit` looks
    /// at the folders once everything is staged.
    @discardableResult
    private static func export(
        _ files: [String: String], to path: String, beforeCommit: () throws -> Void = {}
    ) async throws -> (rendered: Int, kept: Int) {
        let folder = try await OutputFolder.opened(path: path, keepsSpareFrom: 1)
        for (file, contents) in files.sorted(by: { $0.key < $1.key }) { try folder.write(contents, to: file) }
        try beforeCommit()
        let counts = folder.counts
        _ = try await folder.commit(displayRoot: path)
        return counts
    }

    /// A folder's files as text, Vitrine's bookkeeping aside.
    private static func shown(_ url: URL) throws -> [String: String] {
        try TemporaryFolder.files(in: url).filter { !$0.key.hasPrefix("/.vitrine-") }
            .mapValues { String(decoding: $0, as: UTF8.self) }
    }

    @Test func `the night after, the old catalog is the staging folder and only what changed is touched`() async throws
    {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        let spare = OutputFolder.spareURL(of: URL(fileURLWithPath: path))
        let first = ["index.html": "a1", "objects/b.html": "b1", "objects/c.html": "c1", "letters/x.html": "x1"]
        try await Self.export(first, to: path)
        // The first export had no catalog before it: nothing is kept beside.
        #expect(!FileManager.default.fileExists(atPath: spare.path))

        let second = ["index.html": "a1", "objects/b.html": "b2", "objects/c.html": "c1", "letters/x.html": "x1"]
        try await Self.export(second, to: path)
        #expect(try Self.shown(URL(fileURLWithPath: path)) == Self.expected(second))
        #expect(try Self.shown(spare) == Self.expected(first), "the first catalog, kept whole beside the output")

        // The third stages into the first catalog: `index.html` there is the live one's file (a hard link), and
        // writing it must not change the live catalog before the exchange.
        let third = ["index.html": "a3", "objects/b.html": "b2", "objects/d.html": "d3"]
        let counts = try await Self.export(third, to: path) { () throws -> Void in
            let live = try Self.shown(URL(fileURLWithPath: path))
            #expect(live == Self.expected(second), "the live catalog, untouched")
            #expect(!FileManager.default.fileExists(atPath: spare.path), "the spare is this run's staging folder")
        }
        #expect(try Self.shown(URL(fileURLWithPath: path)) == Self.expected(third), "c and letters/ are gone")
        #expect(try Self.shown(spare) == Self.expected(second))
        #expect(counts.rendered == 2 && counts.kept == 1)

        // Nothing changed: every file is kept where it is, from the spare or by a link.
        let again = try await Self.export(third, to: path)
        #expect(again.rendered == 0 && again.kept == 3)
        #expect(try Self.shown(URL(fileURLWithPath: path)) == Self.expected(third))
    }

    @Test func `a file the spare holds at this run's fingerprint stays where it is`() async throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        try await Self.export(["index.html": "a", "objects/b.html": "one"], to: path)
        try await Self.export(["index.html": "a", "objects/b.html": "two"], to: path)
        // Back to what the spare holds: kept from the spare, not written.
        let spareFile = OutputFolder.spareURL(of: URL(fileURLWithPath: path)).appendingPathComponent("objects/b.html")
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: spareFile.path)[.systemFileNumber])
        let counts = try await Self.export(["index.html": "a", "objects/b.html": "one"], to: path)
        #expect(counts.rendered == 0 && counts.kept == 2)
        let live = URL(fileURLWithPath: path).appendingPathComponent("objects/b.html")
        #expect(
            try FileManager.default.attributesOfItem(atPath: live.path)[.systemFileNumber] as? UInt64 == inode
                as? UInt64)
        #expect(try String(contentsOf: live, encoding: .utf8) == "one")
    }

    @Test func `a spare with no readable manifest, or a user's file in it, is not trusted`() async throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        let spare = OutputFolder.spareURL(of: URL(fileURLWithPath: path))
        try await Self.export(["index.html": "a", "objects/b.html": "b"], to: path)
        try await Self.export(["index.html": "a", "objects/b.html": "b2"], to: path)
        // Damaged: its manifest is gone. It is removed, and the export links from the live catalog instead.
        let records = try #require(CatalogRecords(of: spare.path, output: URL(fileURLWithPath: path)))
        try FileManager.default.removeItem(atPath: records.path(OutputManifest.fileName))
        try Data("stray".utf8).write(to: spare.appendingPathComponent("stray.txt"))
        try await Self.export(["index.html": "a", "objects/b.html": "b3"], to: path)
        #expect(
            try Self.shown(URL(fileURLWithPath: path)) == Self.expected(["index.html": "a", "objects/b.html": "b3"]))
        // A file the spare's manifest does not list (a link to the user's README then, a page put there by hand)
        // is not carried into the catalog; the user's README in the output folder is.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent("README.md"))
        try Data("stray".utf8).write(to: spare.appendingPathComponent("stray.txt"))
        try Data("stray".utf8).write(to: spare.appendingPathComponent("objects/stray.html"))
        try await Self.export(["index.html": "a", "objects/b.html": "b4"], to: path)
        #expect(
            try Self.shown(URL(fileURLWithPath: path))
                == Self.expected(["index.html": "a", "objects/b.html": "b4", "README.md": "mine"]))
    }

    @Test func `a run killed after taking the spare leaves a staging folder the next export removes`() async throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        let spare = OutputFolder.spareURL(of: URL(fileURLWithPath: path))
        try await Self.export(["index.html": "a", "objects/b.html": "b"], to: path)
        try await Self.export(["index.html": "a", "objects/b.html": "b2"], to: path)
        var dead: Int32 = 3_998_000
        while kill(dead, 0) == 0 || errno == EPERM { dead -= 1 }
        // What a killed run leaves once it took the spare and wrote part of its files into it.
        let staging = URL(fileURLWithPath: path).appendingPathComponent(".vitrine-staging-\(dead)")
        try FileManager.default.moveItem(at: spare, to: staging)
        try Data("half".utf8).write(to: staging.appendingPathComponent("objects/b.html"))
        try await Self.export(["index.html": "a", "objects/b.html": "b3"], to: path)
        #expect(!FileManager.default.fileExists(atPath: staging.path))
        #expect(
            try Self.shown(URL(fileURLWithPath: path)) == Self.expected(["index.html": "a", "objects/b.html": "b3"]))
    }

    @Test func `a small catalog keeps no spare`() async throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        for contents in ["a", "b"] {
            let folder = try await OutputFolder.opened(path: path)
            try folder.write(contents, to: "index.html")
            _ = try await folder.commit(displayRoot: path)
        }
        #expect(!FileManager.default.fileExists(atPath: OutputFolder.spareURL(of: URL(fileURLWithPath: path)).path))
    }

    @Test func `the files of a folder asked together are kept as each would be on its own`() async throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        /// Asks for `objects/{name}` with the contents each would have, writes those not kept, and commits.
        func export(_ files: [(name: String, contents: String)]) async throws -> [Bool] {
            let folder = try await OutputFolder.opened(path: path, keepsSpareFrom: 1)
            let kept = folder.keep(files.map(\.name), in: "objects", fingerprints: files.map { Self.made($0.contents) })
            for (file, wasKept) in zip(files, kept) where !wasKept {
                try folder.write(
                    Array(file.contents.utf8), to: "objects/\(file.name)", fingerprint: Self.made(file.contents))
            }
            let counts = folder.counts
            #expect(counts.kept == kept.filter { $0 }.count && counts.rendered == kept.count - counts.kept)
            _ = try await folder.commit(displayRoot: path)
            #expect(
                try Self.shown(URL(fileURLWithPath: path))
                    == Self.expected(
                        Dictionary(uniqueKeysWithValues: files.map { ("objects/\($0.name)", $0.contents) })))
            return kept
        }
        await #expect(
            try export([("a.html", "a1"), ("b.html", "b1"), ("c.html", "c1"), ("d.html", "d1")]) == [
                false, false, false, false,
            ])
        // The first night: kept by a link from the live catalog, unless changed, or gone from it, or not its size.
        try FileManager.default.removeItem(atPath: path + "/objects/c.html")
        try "d1, edited".write(toFile: path + "/objects/d.html", atomically: false, encoding: .utf8)
        await #expect(
            try export([("a.html", "a1"), ("b.html", "b2"), ("c.html", "c1"), ("d.html", "d1"), ("e.html", "e1")])
                == [true, false, false, false, false])
        // The night after, the spare is the first catalog: `a` stays there, `b` and `e` are linked from the live
        // catalog in place of the spare's, `d` changed.
        await #expect(
            try export([("a.html", "a1"), ("b.html", "b2"), ("c.html", "c1"), ("d.html", "d3"), ("e.html", "e1")])
                == [true, true, true, false, true])
        #expect(
            try Self.shown(OutputFolder.spareURL(of: URL(fileURLWithPath: path)))
                == Self.expected([
                    "objects/a.html": "a1", "objects/b.html": "b2", "objects/c.html": "c1",
                    "objects/d.html": "d1", "objects/e.html": "e1",
                ]),
            "the catalog before, untouched by the night's links")
    }

    @Test func `a file asked for alone is kept at the top of the catalog and in a nested folder`() async throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        /// Asks for each file with the contents it would have, writes those not kept, and commits.
        func export(_ files: [(path: String, contents: String)]) async throws -> [Bool] {
            let folder = try await OutputFolder.opened(path: path, keepsSpareFrom: 1)
            let kept = files.map { folder.keep($0.path, fingerprint: Self.made($0.contents)) }
            for (file, wasKept) in zip(files, kept) where !wasKept {
                try folder.write(Array(file.contents.utf8), to: file.path, fingerprint: Self.made(file.contents))
            }
            _ = try await folder.commit(displayRoot: path)
            #expect(
                try Self.shown(URL(fileURLWithPath: path))
                    == Self.expected(Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents) })))
            return kept
        }
        let files = [("index.html", "i1"), ("artists/rembrandt/page-2.html", "r1"), ("search.json", "s1")]
        await #expect(try export(files) == [false, false, false])
        // The first night: linked from the live catalog, unless edited since.
        try "s1, edited".write(toFile: path + "/search.json", atomically: false, encoding: .utf8)
        await #expect(try export(files) == [true, true, false])
        // The night after: from the spare, under the paths its manifest gave them (`index.html`, not `/index.html`).
        await #expect(try export(files) == [true, true, true])
        await #expect(try export([("index.html", "i2")] + files.dropFirst()) == [false, true, true])
    }

    @Test func `a catalog file the user deleted is written again, not taken from where it was`() async throws {
        let parent = try TemporaryFolder()
        let path = Self.site(parent)
        let rows = "id,title\r\nSK-A-1,Night Watch\r\n"
        func export() async throws -> (rendered: Int, kept: Int) {
            let folder = try await OutputFolder.opened(path: path)
            try folder.write(to: "collection.csv") { pieces throws(ExportError) in pieces.write(Array(rows.utf8)) }
            let counts = folder.counts
            _ = try await folder.commit(displayRoot: path)
            return counts
        }
        await #expect(try export().rendered == 1)
        let same = try await export()
        #expect(same.kept == 1 && same.rendered == 0, "the same bytes: the last file is kept")
        // Deleted since: it used to fail the run (`cannot keep … in place`).
        try FileManager.default.removeItem(atPath: path + "/collection.csv")
        let again = try await export()
        #expect(again.rendered == 1 && again.kept == 0)
        #expect(try String(contentsOfFile: path + "/collection.csv", encoding: .utf8) == rows)
    }

    /// Paths as `TemporaryFolder.files` gives them.
    private static func expected(_ files: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: files.map { ("/" + $0.key, $0.value) })
    }
}
