import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

/// One named test for each way a night broke its promise in issue 34 (the randomized suites check them together).
@Suite struct NightTrustRegressionTests {
    /// A repository of `count` records, the `n`th dated `day n` before its clock, as `behaviour` says.
    private static func repository(
        _ count: Int, _ configure: (inout OAIRepository.Behaviour) -> Void = { _ in }
    ) -> OAIRepository {
        var behaviour = OAIRepository.Behaviour()
        behaviour.pageSize = 10
        configure(&behaviour)
        let repository = OAIRepository(behaviour: behaviour)
        repository.change { records, clock in
            records = (0..<count).map { number in
                OAIRepository.Record(
                    number: number, datestamp: clock - (count - number) * 86_400, title: "Object \(number)",
                    maker: "Maker \(number % 4)", date: String(1600 + number))
            }
        }
        return repository
    }

    /// Revises records (a new title, dated now), deletes others, moves the clock a day on.
    private static func night(_ repository: OAIRepository, revise: [Int] = [], delete: [Int] = [], ahead: Int = 0) {
        repository.change { records, clock in
            clock += 86_400
            for number in revise {
                records[number].revision += 1
                records[number].title = "Object \(number) (r\(records[number].revision))"
                records[number].datestamp = clock + ahead
            }
            for number in delete {
                records[number].deleted = true
                records[number].datestamp = clock
            }
        }
    }

    /// A repository of `count` records in set `S` and `outside` more in set `T`, four a page, served, and its first
    /// `--set S` export.
    private static func exportedSet(
        _ count: Int, outside: Int = 0, _ configure: (inout OAIRepository.Behaviour) -> Void = { _ in }
    ) async throws -> (OAIRepository, MockMuseum, FilePageCache, SourceConfiguration) {
        let repository = Self.repository(count + outside) {
            $0.pageSize = 4
            configure(&$0)
        }
        repository.change { records, _ in
            for index in records.indices { records[index].sets = index < count ? ["S"] : ["T"] }
        }
        let (server, cache, whole) = try await Self.served(repository)
        var configuration = whole
        configuration.set = "S"
        _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        return (repository, server, cache, configuration)
    }

    /// `repository` served, a temporary page cache, and the configuration that harvests it whole.
    private static func served(
        _ repository: OAIRepository
    ) async throws -> (MockMuseum, FilePageCache, SourceConfiguration) {
        let server = try await MockMuseum.repository(repository)
        let cache = FilePageCache(directory: try TemporaryFolder().url)
        return (server, cache, SourceConfiguration(source: .oai, baseURL: server.oaiBaseURL))
    }

    /// Records leave the set (dated now), the clock a day on.
    private static func leave(_ repository: OAIRepository, _ numbers: Range<Int>) {
        repository.change { records, clock in
            clock += 86_400
            for number in numbers {
                records[number].sets = []
                records[number].datestamp = clock
            }
        }
    }

    /// Once the last (open) window has ended, the first record of a date window (`inWindow`; by default one with a
    /// start) that has listed it is saved again a minute later, dated `lag` seconds before that, just before the
    /// window's next page.
    private static func saveFirstRecordOfAWindow(
        _ repository: OAIRepository, lag: Int = 0,
        inWindow: @escaping @Sendable (ClosedRange<Int>) -> Bool = { $0.lowerBound != Int.min }
    ) {
        repository.change(inWindow: inWindow) { records, clock, window in
            clock += 60
            guard let first = records.indices.filter({ window.contains(records[$0].datestamp) }).min() else { return }
            records[first].title = "Object \(first) (saved again)"
            records[first].datestamp = clock - lag
        }
    }

    private static func ids(_ run: ExportHarness.Run) throws -> [String] {
        try ExportHarness.csvRows(run.folder.read("collection.csv")).map { $0[0] }.sorted()
    }

    private static func titles(_ run: ExportHarness.Run) throws -> [String] {
        try ExportHarness.csvRows(run.folder.read("collection.csv")).map { $0[1] }.sorted()
    }

    /// Item 1: tokens that repeat from one harvest to the next (`tok-…`, or a counter restarting with the server)
    /// answered a night with yesterday's pages.
    @Test(arguments: [OAIRepository.Behaviour.Tokens.deterministic, .restarting])
    func `a night with tokens that repeat reads tonight's pages, not the last harvest's`(
        tokens: OAIRepository.Behaviour.Tokens
    ) async throws {
        let repository = Self.repository(60) { $0.tokens = tokens }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        // Every record changed, the changes span pages: token 2 of tonight is not token 2 of last night.
        Self.night(repository, revise: Array(0..<60))
        repository.restart()
        let night = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        #expect(night.summary.summary.contains("(60 changed, 0 deleted, 0 new)"), "\(night.summary.summary)")
        #expect(try Self.titles(night).allSatisfy { $0.hasSuffix("(r1)") })
        // And `--full` harvests again, never a replay of a completed harvest's pages.
        Self.night(repository, revise: Array(0..<60))
        let full = try await ExportHarness.run(configuration, concurrency: 1, cache: cache, full: true)
        #expect(try Self.titles(full).allSatisfy { $0.hasSuffix("(r2)") })
    }

    @Test func `a --set night counts each deletion once, and none of another set's changes`() async throws {
        // Two alike repositories of a set; one forgets a token of tonight's list of leavers once.
        var counts: [Int] = []
        for refuses in [false, true] {
            let (repository, server, cache, configuration) = try await Self.exportedSet(40, outside: 8)
            defer { Task { await server.stop() } }
            // Ten records leave the set, two more are deleted, six of set T change and one of T is deleted: the
            // leavers' list (every change of the repository but the set's own) runs to five pages.
            Self.leave(repository, 0..<10)
            Self.night(repository, revise: Array(40..<46), delete: [20, 21, 47])
            if refuses { repository.refuseNextToken(of: "ListIdentifiers") }
            let night = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
            #expect(try Self.ids(night).count == 28)
            let marked = night.summary.summary.firstMatch(of: /(\d+) deleted at the source/).flatMap {
                Int($0.output.1)
            }
            let gone = night.summary.summary.firstMatch(of: /(\d+) gone from the set/).flatMap { Int($0.output.1) }
            counts.append((marked ?? -100) + (gone ?? -100))
            #expect(marked == 2, "\(night.summary.summary)")
            #expect(
                night.summary.notices.contains { $0.contains("started over") } == refuses,
                "\(night.summary.notices)")
        }
        #expect(counts[0] == 12 && counts[1] == counts[0], "\(counts)")
    }

    /// Found by a hostile check: in a list ordered by datestamp whose tokens are offsets, records saved while a
    /// night paged through it moved to its end, and the records that slid back past the page read were skipped;
    /// the next night asked from a later clock, and they stayed stale for good. Likewise a full run lost records.
    @Test(arguments: [false, true])
    func `records revised while a run lists them leave no other stale after the next run`(full: Bool) async throws {
        let repository = Self.repository(30) {
            $0.pageSize = 3
            $0.ordersByDatestamp = true
        }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        // Saved again while the second page is asked for: they move to the end of the list.
        let meanwhile: @Sendable (inout [OAIRepository.Record], inout Int) -> Void = { records, clock in
            clock += 60
            for number in full ? [0, 1, 2] : [10, 11] {
                records[number].title = "Object \(number) (saved again)"
                records[number].datestamp = clock
            }
        }
        if full { repository.change(beforeList: 2, meanwhile) }
        let first = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        if !full {
            // Revised a minute before the night begins, then two of them saved again as it pages.
            Self.night(repository, revise: Array(10..<18))
            repository.change { _, clock in clock += 60 }
            repository.change(beforeList: 2, meanwhile)
            let night = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
            #expect(night.summary.notices.contains { $0.contains("asks again for the changes since") })
        } else {
            // From the moved records' earlier datestamps: not a whole harvest again (found by a review: a long
            // full harvest that saw one edit would have made every run after it a full one).
            #expect(first.summary.notices.contains { $0.contains("asks again for the changes since") })
        }
        let after = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        #expect(after.summary.summary.contains("incremental run"), "\(after.summary.summary)")
        let fresh = try await ExportHarness.run(configuration, chains: 1)
        #expect(try Self.titles(after) == Self.titles(fresh))
        #expect(try Self.ids(after).count == 30)
        // A quiet run after that asks from its own clock again.
        #expect(!after.summary.notices.contains { $0.contains("changed while the repository listed them") })
    }

    /// Found by a review: in a windowed harvest, a record saved after the last (open) window had ended was listed by
    /// no window again, so the record it made slide back in its own window went unseen. Found by a hostile check:
    /// nor when the repository dated the save a little before its clock said the run began (`lag`).
    @Test(arguments: [0, 90])
    func `a record saved after the last date window ended leaves no other stale`(lag: Int) async throws {
        let repository = Self.repository(300) {
            $0.pageSize = 5
            $0.ordersByDatestamp = true
        }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        // The window's first record (listed on its first page) is saved again before its second page.
        Self.saveFirstRecordOfAWindow(repository, lag: lag)
        let first = try await ExportHarness.run(configuration, concurrency: 4, cache: cache, chains: 4)
        #expect(first.summary.notices.contains { $0.contains("date windows") })
        #expect(try Self.titles(first).contains { $0.hasSuffix("(saved again)") })
        #expect(first.summary.notices.contains { $0.contains("asks again for the changes since") })
        #expect(first.summary.summary.contains(" 0 duplicates"), "\(first.summary.summary)")
        let after = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        let fresh = try await ExportHarness.run(configuration, chains: 1)
        #expect(try Self.titles(after) == Self.titles(fresh))
        #expect(try Self.ids(after).count == 300)
    }

    /// Found by a hostile check: in a list by identifier whose tokens are offsets, a record saved out of its date
    /// window made the record after it slide back, dated anywhere in the window (here before the saved one), and
    /// the next run asked only from the saved record's old datestamp. The window open before the span (which an
    /// `earliestDatestamp` later than the oldest records fills) has no start: the next run harvests whole.
    @Test(arguments: [false, true])
    func `a record saved out of its window in a list by identifier leaves no other stale`(
        openBefore: Bool
    ) async throws {
        let repository = Self.repository(300) {
            $0.pageSize = 5
            $0.earliestLies = openBefore
        }
        // Identifiers run against the dates: the record after one in the list is older. Open before: only the 40
        // oldest, dated before the `earliestDatestamp` the repository states (the others run with the dates).
        repository.change { records, clock in
            for index in records.indices {
                let days = openBefore ? (index < 40 ? 261 + index : 300 - index) : index + 1
                records[index].datestamp = clock - days * 86_400
            }
        }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        Self.saveFirstRecordOfAWindow(repository) { window in (window.lowerBound == Int.min) == openBefore }
        let first = try await ExportHarness.run(configuration, concurrency: 4, cache: cache, chains: 4)
        #expect(first.summary.notices.contains { $0.contains("date windows") })
        let next = openBefore ? "harvests the whole collection again" : "asks again for the changes since"
        #expect(first.summary.notices.contains { $0.contains(next) }, "\(first.summary.notices)")
        let after = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        let fresh = try await ExportHarness.run(configuration, chains: 1)
        #expect(try Self.titles(after) == Self.titles(fresh))
        #expect(try Self.ids(after).count == 300)
    }

    /// Found by a review: a windowed night whose first window a saved record left asked again from that window's
    /// start, the night's own `from` less five minutes more each time: nights that drift back.
    @Test func `a night asked again from its own start does not reach further back`() async throws {
        let repository = Self.repository(300) {
            $0.pageSize = 5
            $0.ordersByDatestamp = true
        }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        // A busy night, its changes spread over the day, so that they are cut into windows; a record of the first
        // window (which starts at the night's `from`, five minutes before the last run's clock) saved again.
        let nightFrom = repository.now - 300
        repository.change { records, clock in
            clock += 86_400
            for number in 0..<150 {
                records[number].title = "Object \(number) (r1)"
                records[number].datestamp = clock - 86_000 + number * 500
            }
        }
        Self.saveFirstRecordOfAWindow(repository, inWindow: { $0.lowerBound == nightFrom })
        await server.resetLog()
        let night = try await ExportHarness.run(configuration, concurrency: 4, cache: cache, chains: 4)
        let asked = await server.requests().compactMap { $0.removingPercentEncoding }
        #expect(night.summary.notices.contains { $0.contains("date windows") }, "\(night.summary.notices)")
        #expect(night.summary.notices.contains { $0.contains("asks again") }, "\(night.summary.notices)")
        let from = try #require(asked.first { $0.contains("from=") })
            .firstMatch(of: /from=([^&]+)/).map { String($0.output.1) }
        await server.resetLog()
        let after = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        let again = await server.requests().compactMap { $0.removingPercentEncoding }
        // Asked again from where the night asked, no further back.
        #expect(again.contains { $0.contains("from=\(from ?? "")") }, "\(again.prefix(3)), night from \(from ?? "")")
        let fresh = try await ExportHarness.run(configuration, chains: 1)
        #expect(try Self.titles(after) == Self.titles(fresh))
    }

    /// Found by a hostile check: a repository that dates a change when it began (a transaction's start) lists it
    /// only later, and a change dated seconds before a run's clock but saved after its list passed was never asked
    /// for again.
    @Test func `a change dated a little before the last run's clock is listed the next night`() async throws {
        let repository = Self.repository(30)
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        repository.change { records, clock in
            records[5].title = "Object 5 (saved as the run listed)"
            records[5].datestamp = clock - 30
            clock += 3_600
        }
        let night = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        #expect(night.summary.summary.contains("incremental run"), "\(night.summary.summary)")
        #expect(try Self.titles(night).contains("Object 5 (saved as the run listed)"))
        let fresh = try await ExportHarness.run(configuration, chains: 1)
        #expect(try Self.titles(night) == Self.titles(fresh))
    }

    /// Found by a review: the list since the span's end lists again what the last window listed, and a day-granular
    /// repository's deletions and unreadable records of the day were counted twice.
    @Test func `the list since a windowed span's end counts nothing twice`() async throws {
        let repository = Self.repository(300) { $0.dayGranularity = true }
        Self.night(repository, delete: [3, 150, 299])
        repository.change { records, clock in
            for number in [7, 151] {
                records[number].unreadable = true
                records[number].datestamp = clock
            }
        }
        let (server, _, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        let windowed = try await ExportHarness.run(configuration, concurrency: 4, chains: 4)
        let serial = try await ExportHarness.run(configuration, chains: 1)
        #expect(windowed.summary.notices.contains { $0.contains("date windows") })
        let counts = { (run: ExportHarness.Run) in
            run.summary.summary.split(separator: ",").filter { $0.contains("deleted") || $0.contains("skipped") }
        }
        #expect(counts(windowed) == counts(serial), "\(windowed.summary.summary) / \(serial.summary.summary)")
        #expect(windowed.summary.summary.contains("2 skipped"), "\(windowed.summary.summary)")
        #expect(windowed.summary.warnings.count == 2, "\(windowed.summary.warnings)")
    }

    @Test func `a --set night keeps a re-created member whose old tombstone is listed after it`() async throws {
        // Headers that name no sets (every changed record looks like a leaver but for the set's own listing), and a
        // re-created record's old deleted header listed after it.
        let (repository, server, cache, configuration) = try await Self.exportedSet(20) {
            $0.headersOmitSets = true
            $0.lateTombstones = true
        }
        defer { Task { await server.stop() } }
        Self.night(repository, delete: [5])
        _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        repository.change { records, clock in
            clock += 86_400
            records[5].oldTombstone = records[5].datestamp
            records[5].deleted = false
            records[5].title = "Object 5 (again)"
            records[5].datestamp = clock
        }
        let night = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        let fresh = try await ExportHarness.run(configuration, chains: 1)
        #expect(try Self.titles(night) == Self.titles(fresh))
        #expect(try Self.titles(night).contains("Object 5 (again)"))
    }

    @Test func `a --set night whose list of leavers is refused again after starting over fails, saying so`()
        async throws
    {
        let (repository, server, cache, configuration) = try await Self.exportedSet(40)
        defer { Task { await server.stop() } }
        Self.leave(repository, 0..<10)
        repository.refuseNextToken(of: "ListIdentifiers", times: 2)
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        }
        #expect(error?.exitStatus == 1)
        #expect(
            error?.description.contains("even after the list was started over; run the export again later") == true,
            "\(String(describing: error))")
    }

    /// Item 2: windows covered only [earliestDatestamp, the server's clock].
    @Test func `windows reach records before the claimed earliest datestamp and after the server's clock`() async throws
    {
        let repository = Self.repository(300) {
            $0.earliestLies = true
            $0.clockAhead = 1
        }
        // Three records dated after the server's clock.
        Self.night(repository, revise: [5, 50, 250], ahead: 3 * 3_600)
        let (server, _, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        let windowed = try await ExportHarness.run(configuration, concurrency: 4, chains: 4)
        #expect(windowed.summary.notices.contains { $0.contains("date windows") })
        #expect(try Self.ids(windowed).count == 300)
        #expect(
            windowed.summary.notices.contains {
                $0.hasPrefix("note: 3 records are dated after the server's own clock")
            },
            "\(windowed.summary.notices)")
    }

    /// Item 3: a server that reports its whole size in every window, or ignores `from`/`until`, turned 20 pages into
    /// more than 2,000 requests.
    @Test(arguments: [true, false])
    func `sizes that lie and dates ignored cost about a request a page`(ignoresDates: Bool) async throws {
        let repository = Self.repository(200) {
            $0.sizeLies = true
            $0.ignoresDates = ignoresDates
        }
        let (server, _, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        let run = try await ExportHarness.run(configuration, concurrency: 4, chains: 4)
        let requests = await server.requests().count
        #expect(try Self.ids(run).count == 200)
        #expect(requests <= 20 * 3 / 2 + 12, "\(requests) requests for 20 pages")
        if ignoresDates {
            #expect(run.summary.notices.contains { $0.contains("ignores from and until") })
        }
    }

    /// Item 4: a record whose new datestamp sorts before the stored one kept its stale version.
    @Test func `a revision dated before the stored version still replaces it`() async throws {
        let repository = Self.repository(30)
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        // Record 3 revised and stamped two days ahead of the clock: stored so.
        Self.night(repository, revise: [3], ahead: 2 * 86_400)
        _ = try await ExportHarness.run(configuration, cache: cache)
        // Revised again the next day, with the clock put right: its datestamp goes back.
        Self.night(repository, revise: [3])
        let night = try await ExportHarness.run(configuration, cache: cache)
        #expect(try Self.titles(night).contains("Object 3 (r2)"))
    }

    /// Found by a hostile check: a record a night lists with metadata no reader understands kept its stored version
    /// on the pages, where a fresh export shows none.
    @Test func `a record revised into metadata no reader understands leaves the catalog, as a fresh export has it`()
        async throws
    {
        let repository = Self.repository(40)
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        _ = try await ExportHarness.run(configuration, cache: cache)
        Self.night(repository, revise: [3, 7])
        repository.change { records, _ in records[7].unreadable = true }
        let night = try await ExportHarness.run(configuration, cache: cache)
        #expect(night.summary.summary.contains("incremental run"), "\(night.summary.summary)")
        #expect(!(try Self.ids(night)).contains("MK-7"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
    }

    /// Found by a hostile check: a clock far ahead for one night, then put right, had every later night ask for
    /// changes from that future, missing them all until the real clock caught up.
    @Test func `a repository clock put back harvests whole, missing nothing`() async throws {
        let repository = Self.repository(30)
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        let real = repository.now
        repository.change { _, clock in clock += 5 * 365 * 86_400 }
        _ = try await ExportHarness.run(configuration, cache: cache)
        repository.change { _, clock in clock = real }
        Self.night(repository, revise: [3])
        let night = try await ExportHarness.run(configuration, cache: cache)
        #expect(night.summary.notices.contains { $0.contains("is behind the last harvest's") }, "\(night.summary)")
        #expect(try Self.titles(night).contains("Object 3 (r1)"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
    }

    /// Found by a hostile check: a list page's `responseDate` in another format was stored as the harvest's clock
    /// and sent back as the next night's `from`, which a lenient repository answered with no changes at all.
    @Test func `a list's clock that is not a datestamp is never asked from`() async throws {
        let repository = Self.repository(30) { $0.listsDateAsHTTP = true }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        Self.night(repository, revise: [3])
        await server.resetLog()
        let night = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        let asked = await server.requests()
        #expect(!asked.contains { $0.contains("GMT") }, "\(asked)")
        #expect(try Self.titles(night).contains("Object 3 (r1)"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
    }

    /// Found by a hostile check: a repository whose `Identify` does not read had its first export succeed and every
    /// night after it fail.
    @Test func `a night whose Identify does not read harvests whole, saying why`() async throws {
        let repository = Self.repository(30) { $0.refusesIdentify = true }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        Self.night(repository, revise: [3], delete: [5])
        let night = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        #expect(night.summary.notices.contains { $0.contains("Identify could not be read") }, "\(night.summary)")
        #expect(try Self.titles(night).contains("Object 3 (r1)"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
    }

    /// Found by a hostile check: a repository whose last full page still names a token, and answers that token with
    /// `noRecordsMatch`, had every run fail though every record it counted had come; a night equals a fresh export.
    @Test(arguments: [1, 4])
    func `a token answered with no records once every counted record came ends the list`(concurrency: Int)
        async throws
    {
        let repository = Self.repository(30) { $0.tokenPastEnd = true }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        let full = try await ExportHarness.run(configuration, concurrency: concurrency, cache: cache)
        #expect(try Self.ids(full).count == 30)
        Self.night(repository, revise: [3], delete: [5])
        let night = try await ExportHarness.run(configuration, concurrency: concurrency, cache: cache)
        #expect(try Self.titles(night).contains("Object 3 (r1)"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
    }

    /// A repository with no `completeListSize` whose last full page names a token answered `noRecordsMatch` failed
    /// every run: the list is read twice, and ends there when both passes list as many records; a night equals a
    /// fresh export.
    @Test(arguments: [1, 4])
    func `a token answered with no records and no count ends the list once read twice alike`(concurrency: Int)
        async throws
    {
        // With four chains the list is cut into date windows: a record a page, each window ends so.
        let chains = concurrency > 1 ? 4 : nil
        let repository = Self.repository(80) {
            $0.pageSize = 1
            $0.tokenPastEnd = true
            $0.omitsSize = true
        }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        let full = try await ExportHarness.run(configuration, concurrency: concurrency, cache: cache, chains: chains)
        #expect(try Self.ids(full).count == 80)
        #expect(full.summary.notices.contains { $0.contains("read twice to the same end") })
        #expect(await server.requests().contains { $0.contains("from=") } == (chains != nil))
        Self.night(repository, revise: [3], delete: [5])
        let night = try await ExportHarness.run(
            configuration, concurrency: concurrency, cache: cache, chains: chains)
        #expect(try Self.titles(night).contains("Object 3 (r1)"))
        let fresh = try await ExportHarness.run(configuration)
        try CatalogChecks.expectIdenticalFolders(night.folder, fresh.folder)
    }

    /// Found by a new user's check: a night that stored its harvest and then failed to write its catalog (a file of
    /// the user's where a new page goes) left the next night counting "0 new" for the object it published first.
    @Test func `changes stored by a night that did not publish are counted by the next that does`() async throws {
        let repository = Self.repository(30)
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        let output = try TemporaryFolder()
        _ = try await ExportHarness.run(configuration, cache: cache, output: output)
        repository.change { records, clock in
            clock += 86_400
            records.append(
                OAIRepository.Record(number: 30, datestamp: clock, title: "Object 30", maker: "Maker 2", date: "1630"))
            records[3].revision += 1
            records[3].title = "Object 3 (r1)"
            records[3].datestamp = clock
        }
        let userFile = output.url.appendingPathComponent("objects/mk-30.html")
        try Data("my notes".utf8).write(to: userFile)
        await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(configuration, cache: cache, output: output)
        }
        try FileManager.default.removeItem(at: userFile)
        let published = try await ExportHarness.run(configuration, cache: cache, output: output)
        #expect(published.summary.summary.contains("(1 changed, 0 deleted, 1 new)"), "\(published.summary.summary)")
        let quiet = try await ExportHarness.run(configuration, cache: cache, output: output)
        #expect(quiet.summary.summary.contains("(0 changed, 0 deleted, 0 new)"), "\(quiet.summary.summary)")
    }

    /// Found by a review: a token forgotten (`badResumptionToken`) never ends a list, even after every counted
    /// record: a count that is wrong would lose the rest of it.
    @Test func `a token forgotten after every counted record starts the list over, then fails`() async throws {
        let repository = Self.repository(30) {
            $0.tokenPastEnd = true
            $0.tokenPastEndError = "badResumptionToken"
        }
        let (server, _, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        let error = await #expect(throws: ExportError.self) { try await ExportHarness.run(configuration) }
        #expect(error?.description.contains("rejected the resumption token") == true, "\(String(describing: error))")
    }

    /// Found by a hostile check: a repository that does not apply `set` had other sets' records exported under
    /// `--set`, with no sign of it.
    @Test(arguments: [false, true])
    func `records listed under --set whose headers name only other sets are told of`(ignoresSet: Bool) async throws {
        let repository = Self.repository(12) {
            $0.pageSize = 4
            $0.ignoresSet = ignoresSet
        }
        repository.change { records, _ in
            for index in records.indices { records[index].sets = index < 8 ? ["S:part"] : ["T"] }
        }
        let (server, cache, whole) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        var configuration = whole
        configuration.set = "S"
        let run = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        let told = run.summary.notices.filter { $0.contains("whose headers name only other sets") }
        #expect(told.count == (ignoresSet ? 1 : 0), "\(run.summary.notices)")
        #expect(try Self.ids(run).count == (ignoresSet ? 12 : 8))
    }

    /// Item 6: `--language` was not part of the store's identity: `--language nl` after an English run mixed them.
    @Test func `another --language is another collection store`() {
        let english = OAIPMHSource(
            descriptor: OAIPMHSource.genericDescriptor, baseURL: url("https://r.example/oai"), metadataPrefix: "edm")
        let dutch = OAIPMHSource(
            descriptor: OAIPMHSource.genericDescriptor, baseURL: url("https://r.example/oai"), metadataPrefix: "edm",
            language: "nl")
        #expect(english.collectionIdentity != dutch.collectionIdentity)
        #expect(english.collectionIdentity.hasSuffix(" language=en"))
    }

    /// Item 8: a night failed for good when the server refused the `from` Vitrine built (a fractional responseDate
    /// echoed back, a misstated granularity), blaming flags the user never gave.
    @Test func `fractions are dropped, and a refused night becomes a full run, saying why`() async throws {
        let repository = Self.repository(40) {
            $0.fractionalResponseDate = true
            $0.takesOnlyDays = true
        }
        let (server, cache, configuration) = try await Self.served(repository)
        defer { Task { await server.stop() } }
        _ = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        Self.night(repository, revise: [1, 2], delete: [7])
        await server.resetLog()
        let night = try await ExportHarness.run(configuration, concurrency: 1, cache: cache)
        let asked = await server.requests()
        // Whole seconds, no fraction: the repository said seconds, and refused them (it takes days only).
        #expect(asked.contains { $0.contains("from=") && !$0.contains(".250") && $0.hasSuffix("Z") })
        #expect(night.summary.notices.first?.contains("harvested the whole collection instead of the changes") == true)
        #expect(night.summary.notices.first?.contains("--from") == false)
        #expect(try Self.ids(night).count == 39)
        #expect(try Self.titles(night).contains("Object 1 (r1)"))
    }
}
