import Foundation
import Testing
import VitrineMockMuseum
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineOutput
@testable import VitrineSources

/// A night killed at a random moment (a request of its harvest, the store's commit, every step of the output's
/// commit), then run again, equals a fresh export; and so does the night after (issue 34). The night is the built
/// `vitrine` binary, killed with SIGKILL; seeds as in `NightsPropertyTests` (`VITRINE_SEEDS`, `VITRINE_SEED`).
@Suite(.serialized) struct KilledRunPropertyTests {
    @Test func `a night killed at any moment, run again, equals a fresh export; so does the night after`()
        async throws
    {
        for seed in NightsPropertyTests.seeds {
            try await killed(seed: seed)
        }
    }

    /// Where a run is killed.
    private enum Kill: CustomStringConvertible {
        /// When it has made this many requests (the next one never answers).
        case request(Int)
        case crash(CrashPoint)

        var description: String {
            switch self {
            case .request(let count): "after \(count) requests"
            case .crash(let point): "at \(point.rawValue)"
            }
        }
    }

    private func killed(seed: UInt64) async throws {
        var history = RepositoryHistory(seed: seed &+ 10_000)
        // Drawn apart from the history, so that its nights stay what they were for every seed.
        var meanwhile = SplitMix64(seed: seed &+ 20_000)
        let repository = OAIRepository(behaviour: history.behaviour)
        history.initial(repository)
        let server = try await MockMuseum.repository(repository)
        defer { Task { await server.stop() } }
        let configuration = SourceConfiguration(source: .oai, baseURL: server.oaiBaseURL, set: history.set)
        let scratch = try TemporaryFolder()
        let cacheURL = scratch.url.appendingPathComponent("cache")
        let cache = FilePageCache(directory: cacheURL)
        let output = scratch.url.appendingPathComponent("site")
        let outputFolder = try TemporaryFolder()
        try FileManager.default.removeItem(at: outputFolder.url)
        let chains = history.int(1...5)
        // Before the nights: the user's own files in the site, which no kill may lose.
        try FileManager.default.createDirectory(
            at: output.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: output.appendingPathComponent("docs/notes.md"))
        try Data("readme".utf8).write(to: output.appendingPathComponent("README.md"))
        let site = try TemporaryFolder.adopting(output)
        _ = try await ExportHarness.run(configuration, concurrency: chains, cache: cache, output: site, chains: chains)

        for night in 1...2 {
            // Half the nights the museum changes before the night is run again: those nights are busy (their lists
            // of changes run to several pages) and cut off in their harvest, with stored pages and tokens to resume
            // from.
            let changedMeanwhile = Int.random(in: 0..<2, using: &meanwhile) == 0
            history.night(repository, busy: changedMeanwhile)
            // The night's edits are minutes older than its harvest, so that the night after does not list them again.
            if changedMeanwhile { repository.change { _, now in now += 600 } }
            let kills: [Kill] = [.request(history.int(0...6))] + CrashPoint.allCases.map(Kill.crash)
            let drawn = kills[history.int(0...(kills.count - 1))]
            let kill = changedMeanwhile ? .request(Int.random(in: 2...8, using: &meanwhile)) : drawn
            let context =
                "seed \(seed), night \(night), killed \(kill)\(changedMeanwhile ? ", changed meanwhile" : ""), "
                + "\(history.behaviour)"
                + (history.set.map { ", --set \($0)" } ?? "")
            var arguments = [
                "export", "--source", "oai", "--base-url", server.oaiBaseURL, "--cache", cacheURL.path, "--output",
                output.path, "--chains", String(chains), "--concurrency", String(chains), "--quiet",
            ]
            if let set = history.set { arguments += ["--set", set] }
            await server.resetLog()
            switch kill {
            case .request(let count):
                var faults = MockFaults()
                faults.hangFrom = count
                await server.setFaults(faults)
                let run = try VitrineBinary(arguments, cacheHome: scratch.url)
                // Killed once the request that never answers has been asked, unless the night ended first.
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await server.waitForRequests(count + 1) }
                    group.addTask { _ = await run.exit() }
                    await group.next()
                    group.cancelAll()
                    run.kill()
                }
                _ = await run.exit()
                await server.setFaults(MockFaults())
            case .crash(let point):
                let run = try VitrineBinary(
                    arguments, environment: ["VITRINE_CRASH_AT": point.rawValue], cacheHome: scratch.url)
                let status = await run.exit()
                #expect(
                    run.process.terminationReason == .uncaughtSignal && status == SIGKILL,
                    "\(context): the night was not killed (exit status \(status))")
            }
            // The same command again: with nothing changed at the museum meanwhile it equals a fresh export at once;
            // with the museum changed (stored pages whose tokens now point elsewhere in its lists), the night after
            // must.
            if changedMeanwhile { history.revisit(repository) }
            let again = try await ExportHarness.run(
                configuration, concurrency: chains, cache: cache, output: site, chains: chains)
            var same: String?
            if !changedMeanwhile {
                let fresh = try await ExportHarness.run(configuration, chains: 1)
                same = try NightsPropertyTests.compare(
                    output, fresh.folder.url, ignoring: ["/README.md", "/docs/notes.md"])
                #expect(same == nil, "\(context): \(same ?? "") (\(again.summary.summary))")
            }
            for (file, contents) in [("docs/notes.md", "mine"), ("README.md", "readme")] {
                let kept = try? String(contentsOf: output.appendingPathComponent(file), encoding: .utf8)
                #expect(kept == contents, "\(context): the user's \(file) is lost")
            }
            let strays = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
                $0.contains(".vitrine-staging-")
            }
            #expect(strays.isEmpty, "\(context): \(strays) left beside the site")
            // Records are kept for the folders there are, and only for them.
            let records = try FileManager.default.contentsOfDirectory(
                atPath: scratch.url.appendingPathComponent(".site.vitrine-records").path)
            let folders = [output, OutputFolder.spareURL(of: output)].compactMap {
                CatalogRecords(of: $0.path, output: output)?.folder.lastPathComponent
            }
            #expect(Set(records) == Set(folders), "\(context): records \(records.sorted()), folders \(folders)")
            if same != nil { return }
            // The night after, with the museum changed again.
            history.night(repository)
            _ = try await ExportHarness.run(
                configuration, concurrency: chains, cache: cache, output: site, chains: chains)
            let later = try await ExportHarness.run(configuration, chains: 1)
            same = try NightsPropertyTests.compare(
                output, later.folder.url, ignoring: ["/README.md", "/docs/notes.md"])
            #expect(same == nil, "\(context), the night after: \(same ?? "")")
            if same != nil { return }
        }
    }
}
