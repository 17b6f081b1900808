import Foundation
import Testing
import VitrineHTTP
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineScene
@testable import VitrineSources

/// OAI-PMH in parallel date windows (issue 14): whatever the plan, the catalogs are the ones one chain writes.
@Suite struct WindowedHarvestTests {
    /// 2,000 records, 50 a page, datestamps bunched as a real repository's are.
    static func skewed(_ configure: (inout OAICollection) -> Void = { _ in }) -> OAICollection {
        var collection = OAICollection(count: 2_000, pageSize: 50)
        collection.skewedDatestamps = true
        configure(&collection)
        return collection
    }

    /// One chain against `collection` (or `reference`, when the windowed run meets faults one chain cannot),
    /// then 8 windows at once against `collection`.
    private func exports(
        _ collection: OAICollection, reference: OAICollection? = nil
    ) async throws -> (serial: ExportHarness.Run, windowed: ExportHarness.Run, requests: [String]) {
        let clean = try await MockMuseum.oaiPMH(reference ?? collection)
        let server = try await MockMuseum.oaiPMH(collection)
        defer {
            Task {
                await clean.stop(); await server.stop()
            }
        }
        let serial = try await ExportHarness.run(
            SourceConfiguration(source: .rijksmuseum, baseURL: clean.oaiBaseURL), concurrency: 1)
        let windowed = try await ExportHarness.run(
            SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL), concurrency: 8, chains: 8)
        let requests = await server.requests()
        // The same objects, counted alike (a windowed list that met a record twice says the API counted it twice).
        func objects(_ run: ExportHarness.Run) -> String? {
            run.summary.summary.firstMatch(of: /, ([\d,]+) objects/).map { String($0.output.1) }
        }
        #expect(objects(serial) != nil && objects(serial) == objects(windowed))
        return (serial, windowed, requests)
    }

    @Test func `skewed datestamps are cut into windows and the catalogs equal one chain's`() async throws {
        let (serial, windowed, requests) = try await exports(Self.skewed())
        try CatalogChecks.expectIdenticalFolders(serial.folder, windowed.folder)
        #expect(
            windowed.summary.notices.contains { $0.contains("date windows, up to 8 chains at once (2,000 records") })
        // The list's first page measures it (nothing is fetched ahead of it), Identify tells the span, then the
        // windows, each naming its dates.
        #expect(Array(requests.prefix(2)) == ["/oai?verb=ListRecords&metadataPrefix=edm", "/oai?verb=Identify"])
        let windows = requests.filter { $0.contains("from=") && $0.contains("until=") }
        #expect(windows.count > 8)
        #expect(windowed.summary.summary.contains("0 duplicates"))
    }

    @Test func `a record that moves between windows during the harvest is kept once, as revised`() async throws {
        // Record 42 is listed in the window of its old datestamp as it was, and in that of its new one as revised.
        let moved = Self.skewed { $0.movedRecord = 42 }
        let settled = Self.skewed {
            $0.movedRecord = 42
            $0.movedRecordSettled = true
        }
        let (serial, windowed, requests) = try await exports(moved, reference: settled)
        try CatalogChecks.expectIdenticalFolders(serial.folder, windowed.folder)
        #expect(requests.contains { $0.contains("from=") }, "the harvest was cut into windows")
        #expect(windowed.summary.summary.contains("1 duplicate,"), "both versions were read")
        let rows = try windowed.folder.read("collection.csv").split(separator: "\r\n").filter {
            $0.hasPrefix("SK-A-43,")
        }
        #expect(rows.count == 1)
        #expect(rows.first?.contains("(revision 1)") == true, "the later datestamp's version is kept")
    }

    @Test func `a window whose token repeats stops the harvest naming the token, instead of looping`() async throws {
        let server = try await MockMuseum.oaiPMH(Self.skewed { $0.repeatsTokenFrom = 1 })
        defer { Task { await server.stop() } }
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(
                SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL), concurrency: 8, chains: 8)
        }
        #expect(error?.description.contains("sent the resumption token") == true, "\(String(describing: error))")
        #expect(error?.description.contains("again after page 2") == true)
        let requests = await server.requests()
        #expect(requests.contains { $0.contains("from=") }, "the harvest was in windows when the token repeated")
        #expect(requests.count < 200)
    }

    @Test func `a repository without completeListSize is cut evenly and walked`() async throws {
        let (serial, windowed, _) = try await exports(Self.skewed { $0.omitCompleteListSize = true })
        try CatalogChecks.expectIdenticalFolders(serial.folder, windowed.folder)
        #expect(windowed.summary.notices.contains { $0.contains("no completeListSize") })
    }

    @Test func `a repository that refuses from and until is harvested as one chain, saying so`() async throws {
        let (serial, windowed, _) = try await exports(Self.skewed { $0.refusesDates = true })
        try CatalogChecks.expectIdenticalFolders(serial.folder, windowed.folder)
        #expect(windowed.summary.notices.contains { $0.contains("refused a date window") })
    }

    @Test func `records that all share one datestamp end in a one-second window, still whole`() async throws {
        // The bulk load without skew: every record has the same datestamp second.
        let (serial, windowed, requests) = try await exports(OAICollection(count: 600, pageSize: 50))
        try CatalogChecks.expectIdenticalFolders(serial.folder, windowed.folder)
        // The list's first page shows the bunch: that second is walked at once, and the rest of the listing, before
        // it and after it, is asked for once each, instead of being cut again and again down to the second.
        let windows = requests.filter { $0.contains("from=") || $0.contains("until=") }
            .compactMap { $0.removingPercentEncoding }
        #expect(
            windows.sorted() == [
                "/oai?verb=ListRecords&metadataPrefix=edm&from=2026-06-09T10:19:51Z&until=2026-06-09T10:19:51Z",
                "/oai?verb=ListRecords&metadataPrefix=edm&from=2026-06-09T10:19:52Z",
                // After every window, the changes since the span's end (the server's clock, less a few minutes).
                "/oai?verb=ListRecords&metadataPrefix=edm&from=2026-11-22T09:55:00Z",
                "/oai?verb=ListRecords&metadataPrefix=edm&until=2026-06-09T10:19:50Z",
            ])
        #expect(windowed.summary.notices.contains { $0.contains("harvested in 3 date windows") })
    }

    @Test func `a span of one second cannot be split and is one chain`() async throws {
        let server = try await MockMuseum.oaiPMH(OAICollection(count: 600, pageSize: 50))
        defer { Task { await server.stop() } }
        let configuration = SourceConfiguration(
            source: .rijksmuseum, baseURL: server.oaiBaseURL, from: "2026-06-09T10:19:51Z",
            until: "2026-06-09T10:19:51Z")
        let run = try await ExportHarness.run(configuration, concurrency: 8, chains: 8)
        #expect(run.summary.notices.contains { $0.contains("is one second: one chain") })
        #expect(run.summary.summary.contains("546 objects"))
    }

    @Test func `a token that expires inside a window restarts that window alone`() async throws {
        let (serial, windowed, requests) = try await exports(
            Self.skewed { $0.expiresOnce = [2] }, reference: Self.skewed())
        try CatalogChecks.expectIdenticalFolders(serial.folder, windowed.folder)
        #expect(windowed.summary.summary.contains("0 duplicates"))
        // The first attempts' pages count no deletion twice.
        let marked = { (run: ExportHarness.Run) in
            run.summary.summary.firstMatch(of: /([\d,]+) deleted at the source/)?.1
        }
        #expect(marked(windowed) != nil && marked(windowed) == marked(serial), "\(windowed.summary.summary)")
        // Only windows of three pages or more had their third page refused once; none started the whole
        // harvest over.
        #expect(requests.filter { $0 == "/oai?verb=Identify" }.count == 1)
        #expect(!windowed.summary.notices.contains { $0.contains("started over from the first page") })
    }

    @Test func `an incremental run is windowed too and still equals a fresh export`() async throws {
        let collection = Self.skewed {
            $0.generations = [ChangeGeneration(revised: Array(stride(from: 5, to: 2_000, by: 40)), added: 30)]
        }
        let server = try await MockMuseum.oaiPMH(collection)
        defer { Task { await server.stop() } }
        let store = try TemporaryFolder()
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        let first = try await ExportHarness.run(configuration, concurrency: 8, store: store, chains: 8)
        #expect(first.summary.summary.contains("full run (0 changed, 0 deleted, 1,819 new)"))
        var faults = MockFaults()
        faults.museumGeneration = 1
        await server.setFaults(faults)
        let incremental = try await ExportHarness.run(configuration, concurrency: 8, store: store, chains: 8)
        #expect(incremental.summary.summary.contains("incremental run, changes since 2026-11-22T09:55:00Z"))
        // 50 revised, 4 of them deleted headers before (now objects again), and 30 added.
        #expect(incremental.summary.summary.contains("(46 changed, 0 deleted, 34 new)"))
        let fresh = try await ExportHarness.run(configuration, concurrency: 1)
        try CatalogChecks.expectIdenticalFolders(incremental.folder, fresh.folder)
    }

    /// Every request's URL, as the export sends it.
    final class SentRequests: Transport, Sendable {
        private let inner = AsyncHTTPTransport(timeouts: ExportHarness.patientTimeouts)
        let urls = Locked<[String]>([])

        func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
            urls.withLock { $0.append(request.url.absoluteString) }
            return try await inner.fetch(request)
        }
    }

    /// The URL of every request whose answer a page cache holds (the last line of each entry's key).
    static func storedRequests(in cache: FilePageCache) throws -> Set<String> {
        let root = cache.harvests.path
        let files = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return Set(
            try files.filter { $0.hasSuffix(".page") && !($0.split(separator: "/").last ?? "").hasPrefix(".") }.map {
                file in
                let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + file))
                let line = data.prefix { $0 != UInt8(ascii: "\n") }
                let header = try JSONSerialization.jsonObject(with: line) as? [String: Any]
                let key = header?["url"] as? String ?? ""
                return String(key.split(separator: "\n").last ?? "")
            })
    }

    @Test func `a windowed harvest cut off part way resumes its windows from the page cache`() async throws {
        let server = try await MockMuseum.oaiPMH(Self.skewed())
        let clean = try await MockMuseum.oaiPMH(Self.skewed())
        defer {
            Task {
                await server.stop(); await clean.stop()
            }
        }
        let store = try TemporaryFolder()
        let cache = try TemporaryFolder()
        let pages = FilePageCache(directory: cache.url)
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: server.oaiBaseURL)
        // The server stops answering after 30 requests: Identify and some windows' pages got through.
        await server.setFaults(MockFaults(outageAfter: 30, outageStatus: 404))
        await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(
                configuration, concurrency: 8, cache: pages, retries: 0, store: store, chains: 8)
        }
        // What the failed run kept: the pages it had read whole when the outage stopped it (a 404 is never kept). A
        // page the server answered while another chain was failing may have been dropped unread; that one is asked
        // for again.
        let stored = try Self.storedRequests(in: pages)
        // Every request the failed run made, read after the pages kept: a page is logged before it is answered, so
        // each kept page is in the log. The mock counts a request before it logs it, so with 8 chains the 30
        // answered ones are not always the first 30 in the log.
        let answered = await server.requests()
        let kept = answered.filter { stored.contains(server.baseURL + $0) }
        // A day later by the server's clock (the records unchanged): only the span kept in the store gives the
        // same windows again.
        var later = MockFaults()
        later.museumGeneration = 1
        await server.setFaults(later)
        // Counted as Vitrine sends them: the mock may log after a reset what the failed run sent and gave up on
        // (its handlers run late on the executors every test shares), so its log is no count of the resumed run.
        let sent = SentRequests()
        let resumed = try await ExportHarness.run(
            configuration, concurrency: 8, cache: pages, transport: sent, store: store, chains: 8)
        let asked = sent.urls.current.map { String($0.dropFirst(server.baseURL.count)) }
        // The same span and so the same windows: nothing kept is asked again but the last stored page of each chain
        // (the whole list's first page, and each window's), to check that the list is unchanged; the kept pages are
        // read from the cache (most of them: 25 to 28 of 29 in runs here; windows asked for anew would read none).
        #expect(kept.count >= 15, "the failed run kept \(kept.count) of its \(answered.count) requests")
        let repeated = Set(asked).intersection(kept)
        let windows =
            resumed.summary.notices.lazy.compactMap { $0.firstMatch(of: /in (\d+) date windows/) }.first
            .flatMap { Int($0.output.1) } ?? 0
        // No page is asked twice but one the failed run stored (a window's last stored page, asked to check its
        // stored chain): the records are the same a day on, so no window starts over.
        let twice = Dictionary(grouping: asked, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
            .filter { $0.contains("resumptionToken") && !stored.contains(server.baseURL + $0) }
        let detail =
            "asked again: \(repeated.sorted().prefix(3)), \(windows) windows, asked twice: \(twice.prefix(3)); "
            + resumed.summary.summary
        #expect(windows > 1 && repeated.count <= windows + 1, "\(detail)")
        #expect(twice.isEmpty, "\(detail)")
        let fromCache = resumed.summary.summary.firstMatch(of: /([\d,]+) from cache/).flatMap { Int($0.output.1) } ?? 0
        // At most what the cache holds: the log can miss a request answered while the outage began (1 run in 6).
        #expect(
            fromCache * 2 >= kept.count && fromCache <= stored.count,
            "\(fromCache) from cache, \(kept.count) kept, \(stored.count) stored")
        let serial = try await ExportHarness.run(
            SourceConfiguration(source: .rijksmuseum, baseURL: clean.oaiBaseURL), concurrency: 1)
        try CatalogChecks.expectIdenticalFolders(resumed.folder, serial.folder)
    }
}
