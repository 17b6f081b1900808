import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineHTTP
@testable import VitrineOAIPMH
@testable import VitrineSources

/// The harvest engine against faulty loopback APIs: retries, concurrency, the page cache, resuming, offline.
/// Pauses are recorded, never slept.
@Suite struct HarvestEngineTests {
    private static let catalogs = ["index.html", "catalog.md", "collection.csv"]

    private func expectSameCatalogs(
        _ first: TemporaryFolder, _ second: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for file in Self.catalogs {
            #expect(try first.read(file) == second.read(file), "\(file) differs", sourceLocation: sourceLocation)
        }
    }

    private func cache(in folder: TemporaryFolder) -> FilePageCache {
        FilePageCache(directory: folder.url.appendingPathComponent("cache"))
    }

    /// Every page file the cache holds, by path under it.
    private func pageFiles(in folder: TemporaryFolder) throws -> [String] {
        let root = folder.url.appendingPathComponent("cache")
        let files = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        return files.filter { $0.hasSuffix(".page") }
    }

    // MARK: Faults

    @Test func `a harvest riddled with 503s and 429s writes the same catalogs as a clean one`() async throws {
        let legacy = try await MockMuseum.rijksmuseumLegacy(.generated(count: 437))
        let oai = try await MockMuseum.oaiPMH(OAICollection(count: 260))
        let met = try await MockMuseum.met(MetCollection(count: 80))
        defer {
            Task {
                await legacy.stop(); await oai.stop(); await met.stop()
            }
        }
        let configurations = [
            SourceConfiguration(source: .rijksmuseumLegacy, baseURL: legacy.legacyBaseURL, key: "k", pageSize: 20),
            SourceConfiguration(source: .rijksmuseum, baseURL: oai.oaiBaseURL),
            SourceConfiguration(source: .met, baseURL: met.metBaseURL),
        ]
        for (museum, configuration) in zip([legacy, oai, met], configurations) {
            let clean = try await ExportHarness.run(configuration)
            await museum.setFaults(MockFaults(flakyEvery: 3))
            let riddled = try await ExportHarness.run(configuration)
            await museum.setFaults(MockFaults())
            try expectSameCatalogs(clean.folder, riddled.folder)
            // Each flaky URL failed twice: 503 (backoff, 0.75 s at this jitter) then 429 (Retry-After: 1 s).
            #expect(riddled.summary.summary.contains("retries"), "\(riddled.summary.summary)")
            #expect(riddled.pauses.contains(.seconds(1)) && riddled.pauses.contains(.milliseconds(750)))
        }
    }

    @Test func `dropped connections are retried and change nothing`() async throws {
        let museum = try await MockMuseum.rijksmuseumLegacy(.generated(count: 300))
        defer { Task { await museum.stop() } }
        let configuration = SourceConfiguration(
            source: .rijksmuseumLegacy, baseURL: museum.legacyBaseURL, key: "k", pageSize: 20)
        let clean = try await ExportHarness.run(configuration)
        await museum.resetLog()
        await museum.setFaults(MockFaults(dropEvery: 3))
        let dropped = try await ExportHarness.run(configuration)
        try expectSameCatalogs(clean.folder, dropped.folder)
        // Every URL the server hung up on was asked again, by the worker's retries.
        let requests = await museum.requests()
        #expect(requests.count > Set(requests).count)
        #expect(dropped.summary.summary.contains("retr"), "\(dropped.summary.summary)")
    }

    @Test func `concurrency 1 and 8 write byte-identical catalogs for every paging style`() async throws {
        let oai = try await MockMuseum.oaiPMH(OAICollection(count: 180, pageSize: 20))
        let met = try await MockMuseum.met(MetCollection(count: 150))
        let aic = try await MockMuseum.artInstitute(ArtInstituteCollection(count: 330))
        defer {
            Task {
                await oai.stop(); await met.stop(); await aic.stop()
            }
        }
        for configuration in [
            SourceConfiguration(source: .rijksmuseum, baseURL: oai.oaiBaseURL),
            SourceConfiguration(source: .met, baseURL: met.metBaseURL),
            SourceConfiguration(source: .aic, baseURL: aic.artInstituteBaseURL, pageSize: 25),
        ] {
            let serial = try await ExportHarness.run(configuration, concurrency: 1)
            let concurrent = try await ExportHarness.run(configuration, concurrency: 8)
            try expectSameCatalogs(serial.folder, concurrent.folder)
        }
    }

    @Test func `pages are fetched ahead of the count without being kept twice`() async throws {
        // 3 pages of 20 at concurrency 8: the window opens 8 pages wide before the count is known; the pages past
        // the end come back empty and are dropped.
        let museum = try await MockMuseum.rijksmuseumLegacy(.generated(count: 55))
        defer { Task { await museum.stop() } }
        let run = try await ExportHarness.run(
            SourceConfiguration(source: .rijksmuseumLegacy, baseURL: museum.legacyBaseURL, key: "k", pageSize: 20),
            concurrency: 8)
        #expect(try ExportHarness.csvRows(run.folder.read("collection.csv")).count == 55)
        #expect(run.summary.summary.hasPrefix("vitrine: rijksmuseum-legacy: 4 pages, 55 objects"))
    }

    // MARK: Cache and resume

    @Test func `an interrupted harvest resumes from the cache, fetching only what it had not stored`() async throws {
        let legacy = try await MockMuseum.rijksmuseumLegacy(.generated(count: 437))
        let oai = try await MockMuseum.oaiPMH(OAICollection(count: 260))
        defer {
            Task {
                await legacy.stop(); await oai.stop()
            }
        }
        let cases = [
            (
                legacy,
                SourceConfiguration(source: .rijksmuseumLegacy, baseURL: legacy.legacyBaseURL, key: "k", pageSize: 20)
            ),
            (oai, SourceConfiguration(source: .rijksmuseum, baseURL: oai.oaiBaseURL)),
        ]
        for (museum, configuration) in cases {
            let clean = try await ExportHarness.run(configuration)
            let folder = try TemporaryFolder()
            let cache = cache(in: folder)

            // The server goes away after 3 requests: the export fails, but what arrived is stored.
            await museum.resetLog()
            await museum.setFaults(MockFaults(outageAfter: 3))
            await #expect(throws: ExportError.self) {
                _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
            }
            let stored = Set(await museum.requests().prefix(3))

            await museum.resetLog()
            await museum.setFaults(MockFaults())
            let resumed = try await ExportHarness.run(configuration, cache: cache)
            let fetchedAgain = Set(await museum.requests())
            try expectSameCatalogs(clean.folder, resumed.folder)
            // Nothing stored is fetched again, but a list's last stored page, to check that the list is unchanged:
            // that page is the server's, not the cache's.
            let again = stored.intersection(fetchedAgain)
            #expect(stored.count == 3 && again.count == 1, "\(stored) ∩ \(fetchedAgain)")
            #expect(resumed.summary.summary.contains("2 from cache"), "\(resumed.summary.summary)")
        }
    }

    @Test func `a resumed chain whose token expired starts over and still writes the whole catalog`() async throws {
        let museum = try await MockMuseum.oaiPMH(OAICollection(count: 200))
        defer { Task { await museum.stop() } }
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: museum.oaiBaseURL)
        let clean = try await ExportHarness.run(configuration)
        let folder = try TemporaryFolder()
        let cache = cache(in: folder)
        await museum.resetLog()
        await museum.setFaults(MockFaults(outageAfter: 2))
        await #expect(throws: ExportError.self) { _ = try await ExportHarness.run(configuration, cache: cache) }

        // The server restarted: the stored tokens mean nothing to it any more. The pages staged before the restart
        // are dropped with the rest.
        await museum.resetLog()
        await museum.setFaults(MockFaults(tokenGeneration: 1))
        let resumed = try await ExportHarness.run(configuration, cache: cache)
        try expectSameCatalogs(clean.folder, resumed.folder)
        #expect(
            resumed.summary.summary.contains(
                "(0 changed, 0 deleted, 182 new), 4 pages, 182 objects, 12 sections, 0 duplicates"))
        #expect(resumed.summary.notices.first?.contains("started over from the first page") == true)
        // Pages 0 and 1 came from the cache; page 1, asked for again to check the list, was refused; then all over,
        // from the start.
        let log = await museum.requests()
        #expect(log.first == "/oai?verb=ListRecords&resumptionToken=b2Zmc2V0%2B1%2FcGFnZQ%3D%3D")
        #expect(log.dropFirst().first == "/oai?verb=ListRecords&metadataPrefix=edm")
    }

    /// What happens at the server between a harvest cut off and its resumption.
    enum Meanwhile: CaseIterable, Sendable {
        /// A record on the first page is revised (it moves to the end of the list).
        case revised
        /// The same, and the resumed run is cut off again just after its list started over.
        case revisedAndCutOffAgain
        /// Nothing changes, but each page lists its records in another order each time.
        case reordered
    }

    @Test(arguments: Meanwhile.allCases)
    func `a chain resumed after its list changed under the stored tokens starts over and loses no record`(
        meanwhile: Meanwhile
    ) async throws {
        // Tokens that hold an offset into a list in datestamp order: a revised record moves to the list's end, and
        // every record after it one place up, so a stored token now points one record further on.
        var behaviour = OAIRepository.Behaviour()
        behaviour.tokens = .deterministic
        behaviour.ordersByDatestamp = true
        behaviour.pageSize = 10
        behaviour.reordersPages = meanwhile == .reordered
        let repository = OAIRepository(behaviour: behaviour)
        repository.change { records, clock in
            records = (0..<50).map {
                OAIRepository.Record(
                    number: $0, datestamp: clock - 86_400 * (50 - $0), title: "Object \($0)", maker: "Maker \($0 % 7)")
            }
        }
        let server = try await MockMuseum.repository(repository)
        defer { Task { await server.stop() } }
        let configuration = SourceConfiguration(source: .oai, baseURL: server.oaiBaseURL)
        let folder = try TemporaryFolder()
        let cache = cache(in: folder)
        // Three pages stored (records 0 to 29), the fourth request fails.
        await server.setFaults(MockFaults(outageAfter: 4))
        await #expect(throws: ExportError.self) { _ = try await ExportHarness.run(configuration, cache: cache) }
        let stored = await server.requests().filter { $0.contains("ListRecords") }.dropLast()
        #expect(stored.count == 3, "\(stored)")

        if meanwhile == .reordered {
            // Unchanged: the stored pages stand, only the last one is asked for again.
            await server.resetLog()
            await server.setFaults(MockFaults())
            let resumed = try await ExportHarness.run(configuration, cache: cache)
            let log = await server.requests().filter { $0.contains("ListRecords") }
            #expect(log.first == stored.last && log.count == 3, "\(log)")
            #expect(resumed.summary.summary.contains("2 from cache"), "\(resumed.summary.summary)")
            #expect(resumed.summary.notices.isEmpty, "\(resumed.summary.notices)")
            return
        }
        repository.change { records, clock in
            clock += 3_600
            records[3].title += " (revised)"
            records[3].datestamp = clock
        }
        await server.resetLog()
        if meanwhile == .revisedAndCutOffAgain {
            // The last stored page asked again and found changed, the list's first page fetched anew, then cut off:
            // the page found changed must not be kept, or the next run would take old pages 0 and 1 with it.
            await server.setFaults(MockFaults(outageAfter: 2))
            await #expect(throws: ExportError.self) { _ = try await ExportHarness.run(configuration, cache: cache) }
            await server.resetLog()
        }
        await server.setFaults(MockFaults())
        let resumed = try await ExportHarness.run(configuration, cache: cache)
        let fresh = try await ExportHarness.run(configuration)
        try expectSameCatalogs(fresh.folder, resumed.folder)
        #expect(try resumed.folder.read("collection.csv").contains("Object 20,"))
        #expect(try resumed.folder.read("collection.csv").contains("Object 30,"))
        #expect(resumed.summary.notices.contains { $0.contains("changed since the pages of this harvest were stored") })
        // Every page was read again: none of the catalog came from the cache.
        #expect(!resumed.summary.summary.contains("from cache"), "\(resumed.summary.summary)")
        if meanwhile == .revised {
            // The last stored page was asked for again, found changed, and the list fetched from its first page.
            let log = await server.requests().filter { $0.contains("ListRecords") }
            #expect(log.first == stored.last && log.dropFirst().first == stored.first, "\(stored) then \(log)")
        }
    }

    @Test func `offline renders from the collection store with no request; a complete harvest keeps no page`()
        async throws
    {
        let museum = try await MockMuseum.rijksmuseumLegacy(.generated(count: 90))
        defer { Task { await museum.stop() } }
        let configuration = SourceConfiguration(
            source: .rijksmuseumLegacy, baseURL: museum.legacyBaseURL, key: "k", pageSize: 20)
        let folder = try TemporaryFolder()
        let full = cache(in: folder)
        let online = try await ExportHarness.run(configuration, cache: full)
        // The harvest completed: its pages went with it.
        #expect(try pageFiles(in: folder).isEmpty)

        await museum.resetLog()
        let offline = try await ExportHarness.run(configuration, cache: full, cacheMode: .offline)
        try expectSameCatalogs(online.folder, offline.folder)
        #expect(await museum.requests().isEmpty)
        #expect(offline.summary.notices.count == 1)
        #expect(offline.summary.notices.first?.contains("made from the collection store alone") == true)
    }

    @Test func `a server that trickles its answer is given up on at the request timeout (issue 12, item 9)`()
        async throws
    {
        let museum = try await MockMuseum.oaiPMH(OAICollection(count: 50))
        defer { Task { await museum.stop() } }
        await museum.setFaults(MockFaults(trickle: .milliseconds(200)))
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(
                SourceConfiguration(source: .rijksmuseum, baseURL: museum.oaiBaseURL), retries: 0,
                timeouts: HTTPTimeouts(connect: 5, read: 5, request: 3))
        }
        // Usually the body's deadline; on a loaded machine the same deadline can expire while the connection is
        // still being set up. Either way the request is given up on, saying which limit it hit.
        let description = error?.description ?? ""
        #expect(
            description.hasSuffix("no response: no complete answer within 3 s (--request-timeout)")
                || description.hasSuffix("timeout)"), "\(description)")
    }

    @Test func `a redirect on the same host is followed; one to another host is refused, naming it`() async throws {
        let museum = try await MockMuseum.oaiPMH(OAICollection(count: 120))
        defer { Task { await museum.stop() } }
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: museum.oaiBaseURL)
        let clean = try await ExportHarness.run(configuration)
        var faults = MockFaults()
        faults.redirectOnce = true
        await museum.setFaults(faults)
        let hopped = try await ExportHarness.run(configuration)
        try expectSameCatalogs(clean.folder, hopped.folder)

        faults = MockFaults()
        faults.redirectAway = "https://elsewhere.example/collect?key=s3cret"
        await museum.setFaults(faults)
        await museum.resetLog()
        let error = await #expect(throws: ExportError.self) { _ = try await ExportHarness.run(configuration) }
        #expect(
            error?.description.hasSuffix(
                "the response cannot be used: the server redirects to another host "
                    + "(https://elsewhere.example/collect?key=***); if you trust it, point --base-url there") == true,
            "\(String(describing: error))")
        // Refused at once: asking again would be redirected again.
        #expect(await museum.requests().count == 1)
    }

    @Test func `offline with an empty or mistyped cache fails, writes nothing and leaves no store (issue 12, item 2)`()
        async throws
    {
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: "http://127.0.0.1:9/oai")
        let folder = try TemporaryFolder()
        let empty = cache(in: folder)
        let output = try TemporaryFolder()
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, cache: empty, cacheMode: .offline, output: output)
        }
        #expect(
            error?.description.hasPrefix("rijksmuseum: --offline makes the catalog from the collection store") == true)
        #expect(
            error?.description.hasSuffix(
                "which holds no complete harvest of this collection; run once without --offline") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
        let stores = folder.url.appendingPathComponent("cache/stores").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: stores)) ?? []).isEmpty)
    }

    @Test func `a password in the base URL works and is in no cache entry, message or summary`() async throws {
        let museum = try await MockMuseum.oaiPMH(OAICollection(count: 120))
        defer { Task { await museum.stop() } }
        let folder = try TemporaryFolder()
        let base = museum.oaiBaseURL.replacingOccurrences(of: "http://", with: "http://alice:s3cret@")
        let run = try await ExportHarness.run(SourceConfiguration(source: .rijksmuseum, baseURL: base))
        #expect(run.summary.summary.hasPrefix("vitrine: rijksmuseum: 3 pages, 110 objects"))
        let texts = [run.summary.summary] + run.summary.notices + run.summary.warnings
        #expect(!texts.joined().contains("s3cret"))
        // A harvest cut off after two pages keeps them, to resume.
        await museum.resetLog()
        await museum.setFaults(MockFaults(outageAfter: 2))
        await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(
                SourceConfiguration(source: .rijksmuseum, baseURL: base), concurrency: 1, cache: cache(in: folder),
                retries: 0)
        }
        let files = try pageFiles(in: folder)
        #expect(files.count == 2)
        for entry in files {
            let text = String(
                decoding: try Data(contentsOf: folder.url.appendingPathComponent("cache/\(entry)")), as: UTF8.self)
            #expect(!text.contains("s3cret") && !entry.contains("s3cret"))
        }
        // A failure names the URL without the password.
        await museum.setFaults(MockFaults(outageAfter: 0))
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(SourceConfiguration(source: .rijksmuseum, baseURL: base), retries: 0)
        }
        #expect(error?.description.contains("http://***@127.0.0.1") == true)
        #expect(error?.description.contains("s3cret") == false)
    }

    @Test func `cache entries never hold the key`() async throws {
        let museum = try await MockMuseum.rijksmuseumLegacy(.generated(count: 90))
        defer { Task { await museum.stop() } }
        let folder = try TemporaryFolder()
        // Cut off after two pages, so that the harvest's pages stay to be resumed.
        await museum.setFaults(MockFaults(outageAfter: 2))
        await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(
                SourceConfiguration(
                    source: .rijksmuseumLegacy, baseURL: museum.legacyBaseURL, key: "s3cret", pageSize: 20),
                concurrency: 1, cache: cache(in: folder), retries: 0)
        }
        let entries = try pageFiles(in: folder)
        #expect(entries.count >= 2)
        for entry in entries {
            #expect(!entry.contains("s3cret"))
            let text = String(
                decoding: try Data(contentsOf: folder.url.appendingPathComponent("cache/\(entry)")), as: UTF8.self)
            #expect(!text.contains("s3cret") && text.contains("key=***"))
        }
    }
}
