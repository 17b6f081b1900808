import Testing
import VitrineTestSupport

@testable import VitrineCore

/// A date window that starts over hands its first pages over again: what they counted (pages, deletions, skipped
/// records and their warnings, notices, records dated ahead of the server) must count once, as in a harvest where
/// no window started over. Found by the windowed test with tokens that expire: 226 deletions marked against 182.
@Suite struct WindowRestartCountTests {
    /// A window's pages: objects, deletions, unreadable records, records dated after the page's clock, notices.
    private static func windows(_ random: inout SplitMix64) -> [[SourcePage]] {
        var number = 0
        return (0..<Int.random(in: 1...6, using: &random)).map { _ in
            (0..<Int.random(in: 1...5, using: &random)).map { _ in
                var page = SourcePage(
                    records: (0..<Int.random(in: 0...6, using: &random)).map { _ in
                        number += 1
                        switch Int.random(in: 0..<8, using: &random) {
                        case 0: return .deleted(recordID: "r\(number)", datestamp: "2026-01-01T00:00:00Z")
                        case 1: return .skipped(reason: "unreadable", recordID: "r\(number)")
                        default:
                            var object = Seeds.object("r\(number)", "Maker \(number % 3)")
                            object.datestamp = Bool.random(using: &random) ? "2026-12-01T00:00:00Z" : nil
                            return .object(object)
                        }
                    }, continuation: .end)
                page.serverTime = "2026-11-30T00:00:00Z"
                if Int.random(in: 0..<4, using: &random) == 0 { page.notices = ["note \(number)"] }
                return page
            }
        }
    }

    /// Hands each window's pages over as windows do (window `w` at places from `w × pagesPerWindow`); a window in
    /// `restarting` first hands over a part of its pages, then starts over and hands them all.
    private static func run(
        _ windows: [[SourcePage]], restarting: [Int: Int]
    ) throws -> (counts: [Int], warnings: [String], notices: [[String]]) {
        var run = RunState(inStore: nil)
        let per = HarvestWorker.pagesPerWindow
        for (window, pages) in windows.enumerated() {
            let start = (window + 1) * per
            if let cut = restarting[window] {
                for (index, page) in pages.prefix(cut).enumerated() {
                    try run.receive(.page(PageReference(index: start + index, cursor: .token(nil)), page))
                }
                try run.receive(.windowStartedOver(pages: start..<(start + per)))
            }
            for (index, page) in pages.enumerated() {
                try run.receive(.page(PageReference(index: start + index, cursor: .token(nil)), page))
            }
        }
        let statistics = run.statistics
        return (
            [statistics.pages, statistics.deleted, run.warnings.count, run.futureDated, run.objectCount],
            run.warnings.map { "\($0.0.index) \($0.1)" }.sorted(), run.notices.map(\.1)
        )
    }

    @Test(arguments: 0..<40)
    func `a window that starts over counts its pages once`(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let windows = Self.windows(&random)
        var restarting: [Int: Int] = [:]
        for window in windows.indices where Bool.random(using: &random) {
            restarting[window] = Int.random(in: 0...windows[window].count, using: &random)
        }
        let once = try Self.run(windows, restarting: [:])
        let again = try Self.run(windows, restarting: restarting)
        #expect(again.counts == once.counts, "seed \(seed), restarting \(restarting)")
        #expect(again.warnings == once.warnings && again.notices == once.notices, "seed \(seed)")
    }
}
