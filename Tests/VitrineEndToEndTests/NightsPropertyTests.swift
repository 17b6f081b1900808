import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

/// The promise of the nightly job (issue 34): whatever happened before, tonight's catalog equals a fresh export of
/// the repository as it is now. Checked over seeded random histories of repositories that misbehave as real ones
/// do (`RepositoryHistory`), byte for byte.
///
/// `swift test` runs a few seeds; `VITRINE_SEEDS=1000 swift test --filter NightsPropertyTests` runs a thousand,
/// and `VITRINE_SEED=734` runs one again.
@Suite(.serialized) struct NightsPropertyTests {
    /// The seeds this run checks.
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["VITRINE_SEED"].flatMap(UInt64.init) { return [one] }
        let count = environment["VITRINE_SEEDS"].flatMap(Int.init) ?? 6
        return (1...UInt64(max(1, count))).map { $0 }
    }()

    @Test func `any sequence of nights, each with any chains, equals a fresh export of the repository then`()
        async throws
    {
        for seed in Self.seeds {
            try await nights(seed: seed)
        }
    }

    private func nights(seed: UInt64) async throws {
        var history = RepositoryHistory(seed: seed)
        let repository = OAIRepository(behaviour: history.behaviour)
        history.initial(repository)
        let server = try await MockMuseum.repository(repository)
        defer { Task { await server.stop() } }
        let configuration = SourceConfiguration(source: .oai, baseURL: server.oaiBaseURL, set: history.set)
        let cacheFolder = try TemporaryFolder()
        let cache = FilePageCache(directory: cacheFolder.url)
        let output = try TemporaryFolder()
        let nights = history.int(2...5)
        for night in 0...nights {
            if night > 0 { history.night(repository) }
            if history.int(0...1) == 0 { repository.restart() }
            let full = night > 0 && history.int(0...6) == 0
            let chains = history.int(1...6)
            // Records saved while the run lists them: the run after it is the one checked.
            let saves = history.int(0...3) == 0
            if saves { history.saveWhileListed(repository) }
            let context =
                "seed \(seed), night \(night) of \(nights) (\(full ? "--full, " : "")--chains \(chains)"
                + "\(saves ? ", records saved while it lists them, then a run" : "")), "
                + "\(history.behaviour)\(history.set.map { ", --set \($0)" } ?? "")"
            await server.resetLog()
            var run = try await ExportHarness.run(
                configuration, concurrency: chains, cache: cache, full: full, output: output, chains: chains)
            repository.cancelScheduledChanges()
            // Whatever the repository says of its sizes and filters: about 1.5 requests a page, and one a window
            // (the windows walked side by side before one finds the dates ignored walk a few pages more), and the
            // list since the span's end after the windows (twice for a run that starts over).
            let asked = await server.requests()
            let requests = asked.count
            let pages = run.summary.summary.firstMatch(of: /, (\d+) pages?,/).flatMap { Int($0.output.1) } ?? 0
            let windows =
                run.summary.notices.lazy.compactMap {
                    $0.firstMatch(of: /harvested in (\d+) date windows|after (\d+) date windows?\)/)
                }.first.flatMap { Int($0.output.1 ?? $0.output.2 ?? "") } ?? 0
            let sinceSpan = windows > 0 ? 2.0 : 0
            #expect(
                Double(requests) <= 1.5 * Double(pages) + Double(windows) + sinceSpan + 5 + Double(chains),
                "\(context): \(requests) requests for \(pages) pages in \(windows) windows: \(asked)")
            if saves {
                run = try await ExportHarness.run(
                    configuration, concurrency: chains, cache: cache, output: output, chains: chains)
            }
            // The reference: one chain, no store, no cache, and it holds exactly the records the repository has.
            let fresh = try await ExportHarness.run(configuration, concurrency: history.int(1...6), chains: 1)
            let listed = Set(try ExportHarness.csvRows(fresh.folder.read("collection.csv")).map { $0[0] })
            let expected = Set(
                repository.current.filter { record in
                    !record.deleted && !record.unreadable
                        && history.set.map { set in record.sets.contains { $0 == set || $0.hasPrefix(set + ":") } }
                            ?? true
                }.map { "MK-\($0.number)" })
            #expect(listed == expected, "\(context): the fresh export is not the repository")
            let same = try Self.compare(output.url, fresh.folder.url)
            #expect(same == nil, "\(context): \(same ?? "") (\(run.summary.summary))")
            if same != nil || listed != expected { return }
        }
    }

    /// `nil` when two catalogs hold the same files byte for byte (Vitrine's own bookkeeping aside); else the first
    /// difference.
    static func compare(_ left: URL, _ right: URL, ignoring: Set<String> = []) throws -> String? {
        func catalog(_ folder: URL) throws -> [String: Data] {
            try TemporaryFolder.files(in: folder).filter { !ignoring.contains($0.key) }
        }
        let (a, b) = (try catalog(left), try catalog(right))
        // Vitrine's records are kept beside the site, never published in it.
        if let own = (Array(a.keys) + Array(b.keys)).sorted().first(where: { $0.contains("/.vitrine") }) {
            return "\(own) is Vitrine's own file, published in the catalog"
        }
        if let only = Set(a.keys).symmetricDifference(b.keys).sorted().first {
            return "\(only) is only in the \(a[only] == nil ? "fresh export" : "night's catalog")"
        }
        for path in a.keys.sorted() where a[path] != b[path] {
            let (night, fresh) = (
                String(decoding: a[path] ?? Data(), as: UTF8.self), String(decoding: b[path] ?? Data(), as: UTF8.self)
            )
            let nightLines = night.split(separator: "\n", omittingEmptySubsequences: false)
            let freshLines = fresh.split(separator: "\n", omittingEmptySubsequences: false)
            let line =
                zip(nightLines, freshLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(nightLines.count, freshLines.count)
            let shown = { (lines: [Substring]) in line < lines.count ? String(lines[line].prefix(300)) : "(end)" }
            return "\(path) differs at line \(line + 1): night \"\(shown(nightLines))\", fresh \"\(shown(freshLines))\""
        }
        return nil
    }
}
