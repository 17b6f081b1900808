import Foundation
import GRDB
import Testing
import VitrineFiles
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineOAIPMH
@testable import VitrineOutput
@testable import VitrineScene
@testable import VitrineSources

/// The collection store (issue 13): a re-run asks only for what changed, and writes exactly what a fresh export
/// of the museum as it now stands writes.
@Suite struct IncrementalExportTests {
    /// A museum of 260 records (every 11th a deleted header), then one night's changes: four records revised
    /// (one of them, 3, changes maker and moves section), two deleted, five added.
    static let museum = {
        var collection = OAICollection(count: 260, pageSize: 50)
        collection.generations = [ChangeGeneration(revised: [3, 12, 50, 121], deleted: [7, 200], added: 5)]
        return collection
    }()

    private func advance(_ museum: MockMuseum, to generation: Int) async {
        var faults = MockFaults()
        faults.museumGeneration = generation
        await museum.setFaults(faults)
    }

    @Test func `after the museum changes, a re-run asks from the last harvest and equals a fresh export`()
        async throws
    {
        let server = try await MockMuseum.oaiPMH(Self.museum)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)

        let first = try await ExportHarness.run(configuration, store: store)
        #expect(
            first.summary.summary.hasPrefix("vitrine: rijksmuseum: full run (0 changed, 0 deleted, 237 new), 6 pages"))
        #expect(try CatalogChecks.row("SK-A-8", in: first.folder) != nil)

        await advance(server, to: 1)
        await server.resetLog()
        let incremental = try await ExportHarness.run(configuration, store: store)
        let requests = await server.requests()
        #expect(
            incremental.summary.summary.hasPrefix(
                "vitrine: rijksmuseum: incremental run, changes since 2026-11-22T09:55:00Z "
                    + "(4 changed, 2 deleted, 5 new), 1 page, 240 objects"))
        // Identify for the server's clock, then one page of changes: not the six pages of the collection.
        #expect(requests.count == 2)
        #expect(requests.first == "/oai?verb=Identify")
        // From the last run's clock, less the few minutes a change may be dated before it is listed.
        #expect(requests.last?.hasSuffix("from=2026-11-22T09%3A55%3A00Z") == true)

        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(incremental.folder, fresh.folder)
        // The deleted record's row, card, page and search entry are gone; the revised one moved section.
        #expect(try CatalogChecks.row("SK-A-8", in: incremental.folder) == nil)
        #expect(try CatalogChecks.row("SK-A-4", in: incremental.folder)?[1].hasSuffix("(revision 1)") == true)
        let everything = try CatalogChecks.files(in: incremental.folder.url).values
            .map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(!everything.contains("SK-A-8\""))
        #expect(!everything.contains("Study № 8<"))

        // Nothing changed since: the next run asks again and changes nothing.
        let quiet = try await ExportHarness.run(configuration, store: store)
        #expect(quiet.summary.summary.contains("(0 changed, 0 deleted, 0 new)"))
        try CatalogChecks.expectIdenticalFolders(quiet.folder, fresh.folder)
    }

    @Test func `Identify is asked with the run's own retries`() async throws {
        let server = try await MockMuseum.oaiPMH(Self.museum)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        _ = try await ExportHarness.run(configuration, store: store)
        // The server is down for the re-run: Identify answers 503 every time.
        await server.setFaults(MockFaults(outageAfter: 0, outageStatus: 503))
        await server.resetLog()
        await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, retries: 1, store: store)
        }
        #expect(await server.requests() == ["/oai?verb=Identify", "/oai?verb=Identify"], "one try and one retry")
    }

    @Test func `a re-run into the same folder renders only the pages whose content changed`() async throws {
        let server = try await MockMuseum.oaiPMH(Self.museum)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let output = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        let first = try await ExportHarness.run(configuration, store: store, output: output)
        #expect(first.written.hasPrefix("wrote ") && !first.written.contains("kept"))
        let untouched = output.url.appendingPathComponent("objects/sk-a-100.html")
        let before = try FileManager.default.attributesOfItem(atPath: untouched.path)[.systemFileNumber] as? Int
        let files = try CatalogChecks.files(in: output.url)

        await advance(server, to: 1)
        let second = try await ExportHarness.run(configuration, store: store, output: output)
        let counts = try #require(
            second.written.firstMatch(of: /\(([\d,]+) files? rendered, ([\d,]+) unchanged and kept\)/))
        let rendered = try #require(Int(counts.output.1.replacing(",", with: "")))
        let kept = try #require(Int(counts.output.2.replacing(",", with: "")))
        // Exactly the files whose bytes changed (or that are new) were written; every other one was kept.
        let after = try CatalogChecks.files(in: output.url)
        let changed = after.filter { files[$0.key] != $0.value }.count
        #expect(rendered == changed)
        #expect(kept == after.count - changed)
        #expect(changed < after.count / 4)
        // An object nothing happened to is the same file, not a copy.
        let inode = try FileManager.default.attributesOfItem(atPath: untouched.path)[.systemFileNumber] as? Int
        #expect(before != nil && before == inode)

        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(second.folder, fresh.folder)
    }

    @Test func `night after night, a re-run staged in the spare catalog equals a fresh export`() async throws {
        var collection = Self.museum
        collection.generations.append(ChangeGeneration(revised: [5, 12, 90], deleted: [9, 121], added: 3))
        let server = try await MockMuseum.oaiPMH(collection)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let output = try TemporaryFolder()
        let spare = OutputFolder.spareURL(of: output.url)
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        _ = try await ExportHarness.run(configuration, store: store, output: output, spareFrom: 1)
        var nights = [try CatalogChecks.files(in: output.url)]
        for generation in 1...2 {
            await advance(server, to: generation)
            let night = try await ExportHarness.run(configuration, store: store, output: output, spareFrom: 1)
            // The catalog before this one is kept whole beside the output folder, to stage the next night into.
            #expect(try CatalogChecks.files(in: spare) == nights[generation - 1])
            nights.append(try CatalogChecks.files(in: output.url))
            let fresh = try await ExportHarness.run(configuration)
            try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
            if generation == 2 {
                // Staged into the first night's catalog: only the files that differ from it were touched.
                let counts = try #require(
                    night.written.firstMatch(of: /\(([\d,]+) files? rendered, ([\d,]+) unchanged and kept\)/))
                let rendered = try #require(Int(counts.output.1.replacing(",", with: "")))
                #expect(rendered > 0 && rendered < nights[2].count / 4)
            }
        }
    }

    @Test func `The Met is asked for the objects changed since the last run, and its list of ids tells what is gone`()
        async throws
    {
        var collection = MetCollection(count: 120, missingEvery: 0)
        collection.generations = [ChangeGeneration(revised: [3, 40], deleted: [10], added: 2)]
        let server = try await MockMuseum.met(collection)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .met, baseURL: server.metBaseURL)
        let first = try await ExportHarness.run(configuration, store: store)
        #expect(first.summary.summary.hasPrefix("vitrine: met: full run (0 changed, 0 deleted, 120 new)"))

        await advance(server, to: 1)
        await server.resetLog()
        let incremental = try await ExportHarness.run(configuration, store: store)
        let requests = await server.requests()
        // Found by a hostile check: the list of changes names no removed object, so a night kept it.
        #expect(
            incremental.summary.summary.hasPrefix(
                "vitrine: met: incremental run, changes since 2026-11-22 (2 changed, 1 deleted, 2 new)"),
            "\(incremental.summary.summary)")
        // The clock, every id, the list of changes, and the four changed objects: not 121 objects.
        #expect(requests.count == 7)
        #expect(requests.first == "/public/collection/v1/departments")
        #expect(requests.contains("/public/collection/v1/objects"))
        #expect(requests.contains("/public/collection/v1/objects?metadataDate=2026-11-22"))
        #expect(
            try CatalogChecks.row(String(MetCollection.id(3)), in: incremental.folder)?[1].hasSuffix("(revision 1)")
                == true)
        #expect(try CatalogChecks.row(String(MetCollection.id(10)), in: incremental.folder) == nil)
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(incremental.folder, fresh.folder)

        // A full run then finds nothing more to change.
        let full = try await ExportHarness.run(configuration, store: store, full: true)
        #expect(full.summary.summary.hasPrefix("vitrine: met: full run (0 changed, 0 deleted, 0 new)"))
    }

    /// Found by a hostile check: a night whose list of every id named 8 of the 20 it counted took the other 12 for
    /// deleted, exit 0. Such a list is an answer cut short: the night is tried again later (exit 75).
    @Test func `a Met night refuses a list of ids that names fewer than it counts`() async throws {
        var collection = MetCollection(count: 20, missingEvery: 0)
        collection.generations = [ChangeGeneration(revised: [3], deleted: [], added: 0)]
        collection.listCutShortFrom = 1
        let server = try await MockMuseum.met(collection)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let output = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .met, baseURL: server.metBaseURL)
        _ = try await ExportHarness.run(configuration, store: store, output: output)
        let before = try output.read("collection.csv")
        await advance(server, to: 1)
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, retries: 0, store: store, output: output)
        }
        #expect(error?.exitStatus == 75)
        #expect(error?.description.contains("names 8 objects but counts 20") == true, "\(String(describing: error))")
        #expect(try output.read("collection.csv") == before)
    }

    /// Found by a hostile check: the night read only the list of changes, so an object the store lacked (a 404
    /// at the first run) stayed out for good, and one listed as changed but not in the collection came in.
    @Test func `a Met night fetches listed objects the store lacks, and only listed ones count`() async throws {
        var collection = MetCollection(count: 60, missingEvery: 0)
        collection.generations = [ChangeGeneration(revised: [3], deleted: [10], added: 1)]
        collection.missingAtFirst = [20]
        collection.changedButUnlisted = [30]
        let server = try await MockMuseum.met(collection)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .met, baseURL: server.metBaseURL)
        let first = try await ExportHarness.run(configuration, store: store)
        #expect(try CatalogChecks.row(String(MetCollection.id(20)), in: first.folder) == nil)
        await advance(server, to: 1)
        let night = try await ExportHarness.run(configuration, store: store)
        #expect(night.summary.summary.contains("incremental run"), "\(night.summary.summary)")
        #expect(try CatalogChecks.row(String(MetCollection.id(20)), in: night.folder) != nil)
        #expect(try CatalogChecks.row(String(MetCollection.id(30)), in: night.folder) == nil)
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
        // An empty list where objects were harvested before is an answer cut short: the catalog stays.
        let empty = MetSource(baseURL: url("http://127.0.0.1:9")).changes(
            in: ChangeWindow(from: "2026-11-22", until: nil), stored: ["436000"])
        let answer = SourceResponse(status: 200, body: Data(#"{"total": 0, "objectIDs": []}"#.utf8))
        await #expect(throws: HarvestFailure.self) { try await empty.decode(answer, page: .token(nil)) }
    }

    /// Found by a hostile check: an id list that counts objects but names none emptied the published catalog.
    @Test func `a Met list that counts objects but names none fails the run and keeps the catalog`() async throws {
        let source = MetSource(baseURL: url("http://127.0.0.1:9/public/collection"))
        let response = SourceResponse(status: 200, body: Data(#"{"total": 40, "objectIDs": null}"#.utf8))
        #expect(throws: HarvestFailure.self) { try source.decode(response, page: .token(nil)) }
        let empty = SourceResponse(status: 200, body: Data(#"{"total": 0, "objectIDs": null}"#.utf8))
        #expect(try source.decode(empty, page: .token(nil)).continuation == .end)
    }

    @Test func `a folder another export is writing into stops a re-run before it asks the museum anything`()
        async throws
    {
        let server = try await MockMuseum.oaiPMH(Self.museum)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        let first = try await ExportHarness.run(configuration, store: store)
        let written = try CatalogChecks.files(in: first.folder.url)

        // Another export holds the folder's lock (a different collection writing there, say).
        guard
            case .held(let other) = FileLock.take(
                OutputFolder.besideFolder(first.folder.url, named: ".vitrine-lock").path)
        else {
            Issue.record("the lock could not be taken")
            return
        }
        await advance(server, to: 1)
        await server.resetLog()
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, store: store, output: first.folder)
        }
        #expect(error?.description.contains("another vitrine export is writing into") == true)
        #expect(await server.requests().isEmpty)
        #expect(try CatalogChecks.files(in: first.folder.url) == written)

        // Once it is done, the same command runs the night it was stopped from.
        close(other)
        let night = try await ExportHarness.run(configuration, store: store, output: first.folder)
        #expect(night.summary.summary.contains("incremental run"))
        #expect(night.summary.summary.contains("(4 changed, 2 deleted, 5 new)"))
    }

    @Test func `a full run harvests every page again and finds nothing changed`() async throws {
        let server = try await MockMuseum.oaiPMH(Self.museum)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        _ = try await ExportHarness.run(configuration, store: store)
        await server.resetLog()
        let full = try await ExportHarness.run(configuration, store: store, full: true)
        #expect(full.summary.summary.hasPrefix("vitrine: rijksmuseum: full run (0 changed, 0 deleted, 0 new), 6 pages"))
        let requests = await server.requests()
        #expect(requests.count == 6)
        #expect(!requests.contains { $0.contains("Identify") || $0.contains("from=") })
    }

    @Test func `a source without a change feed is harvested whole and compared with the store`() async throws {
        // `--until` fixes the collection at a date, so OAI-PMH cannot list changes: every run is full.
        let server = try await MockMuseum.oaiPMH(Self.museum)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(
            source: .rijksmuseum, baseURL: server.oaiBaseURL, until: "2030-01-01T00:00:00Z")
        _ = try await ExportHarness.run(configuration, store: store)
        await advance(server, to: 1)
        let second = try await ExportHarness.run(configuration, store: store)
        #expect(second.summary.summary.hasPrefix("vitrine: rijksmuseum: full run (4 changed, 2 deleted, 5 new)"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(second.folder, fresh.folder)
    }

    @Test func `a repository that takes only days is asked by the day`() async throws {
        var collection = Self.museum
        collection.dayGranularity = true
        let server = try await MockMuseum.oaiPMH(collection)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        _ = try await ExportHarness.run(configuration, store: store)
        await advance(server, to: 1)
        await server.resetLog()
        let incremental = try await ExportHarness.run(configuration, store: store)
        #expect(await server.requests().last?.hasSuffix("from=2026-11-22") == true)
        #expect(incremental.summary.summary.contains("(4 changed, 2 deleted, 5 new)"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(incremental.folder, fresh.folder)
    }

    @Test func `an incremental run cut off part way leaves the store as it was and resumes its window`()
        async throws
    {
        var collection = Self.museum
        // Enough changes for three pages: the outage strikes after the first.
        collection.generations = [ChangeGeneration(revised: Array(0..<120).filter { $0 % 11 != 10 }, added: 20)]
        let server = try await MockMuseum.oaiPMH(collection)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let cache = try TemporaryFolder()
        let pages = FilePageCache(directory: cache.url)
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        _ = try await ExportHarness.run(configuration, cache: pages, store: store)

        // Identify and two pages of changes answer; the third page does not.
        var faults = MockFaults(outageAfter: 3, outageStatus: 404)
        faults.museumGeneration = 1
        await server.resetLog()
        await server.setFaults(faults)
        await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, cache: pages, retries: 0, store: store)
        }
        faults.outageAfter = nil
        await server.setFaults(faults)
        await server.resetLog()
        let resumed = try await ExportHarness.run(configuration, cache: pages, store: store)
        #expect(resumed.summary.notices.contains { $0.contains("resumed the incremental harvest of changes from") })
        // No new Identify: the window the cut-off run asked for is asked for again, its first page from the cache.
        #expect(await !server.requests().contains { $0.contains("Identify") })
        #expect(resumed.summary.summary.contains("(110 changed, 0 deleted, 20 new)"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(resumed.folder, fresh.folder)
    }

    @Test func `offline with a stored collection renders it without a request`() async throws {
        let server = try await MockMuseum.oaiPMH(Self.museum)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let cache = try TemporaryFolder()
        let pages = FilePageCache(directory: cache.url)
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        let online = try await ExportHarness.run(configuration, cache: pages, store: store)
        // The page cache emptied: only the store can answer.
        try FileManager.default.removeItem(at: cache.url)
        await server.resetLog()
        let offline = try await ExportHarness.run(configuration, cache: pages, cacheMode: .offline, store: store)
        #expect(await server.requests().isEmpty)
        #expect(
            offline.summary.summary.hasPrefix("vitrine: rijksmuseum: from the collection store, no request, 0 pages"))
        try CatalogChecks.expectIdenticalFolders(offline.folder, online.folder)
    }

    /// The collection store's database file in a store folder that holds one.
    private static func storePath(in store: TemporaryFolder) throws -> String {
        let stores = store.url.appendingPathComponent("stores")
        let file = try #require(
            FileManager.default.contentsOfDirectory(atPath: stores.path).first { $0.hasSuffix(".sqlite") })
        return stores.appendingPathComponent(file).path
    }

    /// A store as an earlier version left it (`alter`, on the first run's store), then a night with the museum a
    /// change on: a full run, equal to a fresh export. Returns the night.
    private func nightAfterUpgrade(_ alter: @Sendable @escaping (Database) throws -> Void) async throws
        -> ExportHarness.Run
    {
        let server = try await MockMuseum.oaiPMH(Self.museum)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        _ = try await ExportHarness.run(configuration, store: store)
        let old = try DatabaseQueue(path: Self.storePath(in: store))
        try await old.write(alter)
        try old.close()

        await advance(server, to: 1)
        let night = try await ExportHarness.run(configuration, store: store)
        #expect(night.summary.summary.contains("full run"), "\(night.summary.summary)")
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
        return night
    }

    @Test func `a store an earlier version harvested with fewer fields is upgraded, and equals a fresh export`()
        async throws
    {
        // The store as the version before schema 7 left it: no other facts were read, none were kept.
        let upgraded = try await nightAfterUpgrade { db in
            try db.execute(sql: "ALTER TABLE object DROP COLUMN other_facts")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v7-other-facts'")
        }
        let page = String(
            decoding: try Data(contentsOf: upgraded.folder.url.appendingPathComponent("objects/sk-a-1.html")),
            as: UTF8.self)
        #expect(page.contains("<dt>Provenance</dt>") && page.contains("<dt>Coordinates</dt>"))
    }

    @Test func `objects an earlier reading of records stored are read again, and equal a fresh export`()
        async throws
    {
        // As a version that read dates and titles otherwise left them.
        _ = try await nightAfterUpgrade { db in
            try db.execute(sql: "UPDATE object SET title = 'as read before', year_begin = NULL, year_end = NULL")
            try db.execute(
                sql: "UPDATE harvest SET value = ? WHERE name = 'reading_version'",
                arguments: [String(ArtObject.readingVersion - 1)])
        }
    }

    @Test func `a damaged store is refused naming its path and the full flag, which makes it anew`() async throws {
        let server = try await MockMuseum.oaiPMH(OAICollection(count: 60))
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        _ = try await ExportHarness.run(configuration, store: store)
        let path = try Self.storePath(in: store)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: path))

        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, store: store)
        }
        let message = error?.description ?? ""
        #expect(message.contains(path))
        #expect(message.contains("--full"))
        let full = try await ExportHarness.run(configuration, store: store, full: true)
        #expect(full.summary.summary.contains("full run (0 changed, 0 deleted, 55 new)"))
    }
}
