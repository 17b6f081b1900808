import Foundation
import Testing

@testable import VitrineCore

/// How a windowed OAI-PMH harvest plans a window measured too large: equal pieces, or the bunch its first page
/// shows walked at once with the rest around it.
@Suite struct DateWindowPlanTests {
    private static let day = DateWindow(from: "2026-11-23T10:00:00Z", until: "2026-11-24T10:00:00Z", daysOnly: false)

    private static func page(_ datestamps: [String?], deleted: Int = 0) -> SourcePage {
        let objects = datestamps.enumerated().map { number, datestamp in
            RecordOutcome.object(ArtObject(id: "SK-A-\(number)", title: "t", datestamp: datestamp))
        }
        let deletions = Array(repeating: RecordOutcome.deleted(recordID: "gone"), count: deleted)
        return SourcePage(records: deletions + objects + [.skipped(reason: "no title")], continuation: .next(nil))
    }

    @Test func `a first page whose objects share one second plans that second first, and the span around it`() throws {
        let window = try #require(Self.day)
        let first = Self.page(Array(repeating: "2026-11-23T18:30:00Z", count: 40), deleted: 10)
        let second = try #require(
            DateWindow(from: "2026-11-23T18:30:00Z", until: "2026-11-23T18:30:00Z", daysOnly: false))
        #expect(HarvestWorker.bunch(of: first, in: window) == second)

        let planned = HarvestWorker.split(window, size: 1_000, target: 500, chains: 4, first: first)
        #expect(planned.map(\.window) == [second] + window.around(second))
        #expect(planned.map(\.measure) == [false, true, true])
        #expect(planned.first?.estimate == 1_000)
        // The span around the second: up to the second before it, and from the second after it.
        #expect(
            window.around(second).map(\.change) == [
                ChangeWindow(from: "2026-11-23T10:00:00Z", until: "2026-11-23T18:29:59Z"),
                ChangeWindow(from: "2026-11-23T18:30:01Z", until: "2026-11-24T10:00:00Z"),
            ])
    }

    @Test func `without one shared datestamp inside the window, the window is cut into equal pieces`() throws {
        let window = try #require(Self.day)
        let pages = [
            Self.page(["2026-11-23T18:30:00Z", "2026-11-23T18:30:01Z"]),  // two seconds
            Self.page(["2026-11-23T18:30:00Z"]),  // one object says little
            Self.page(["2026-11-23T18:30:00Z", nil]),  // an object without a datestamp
            Self.page(["2026-11-25T00:00:00Z", "2026-11-25T00:00:00Z"]),  // outside the window
            Self.page([]),
        ]
        for first in pages {
            #expect(HarvestWorker.bunch(of: first, in: window) == nil)
            let planned = HarvestWorker.split(window, size: 1_000, target: 500, chains: 4, first: first)
            #expect(planned.map(\.window) == window.pieces(2))
            #expect(planned.allSatisfy { $0.measure })
        }
        // A window of one second is its own bunch: nothing to plan around it.
        let second = try #require(
            DateWindow(from: "2026-11-23T18:30:00Z", until: "2026-11-23T18:30:00Z", daysOnly: false))
        #expect(
            HarvestWorker.bunch(of: Self.page(["2026-11-23T18:30:00Z", "2026-11-23T18:30:00Z"]), in: second) == nil)
    }

    @Test func `a repository of days plans the day its first page's objects share`() throws {
        let month = try #require(DateWindow(from: "2026-11-01", until: "2026-11-30", daysOnly: true))
        let first = Self.page(["2026-11-23", "2026-11-23", "2026-11-23"])
        let day = try #require(DateWindow(from: "2026-11-23", until: "2026-11-23", daysOnly: true))
        #expect(HarvestWorker.bunch(of: first, in: month) == day)
        #expect(
            month.around(day).map(\.change) == [
                ChangeWindow(from: "2026-11-01", until: "2026-11-22"),
                ChangeWindow(from: "2026-11-24", until: "2026-11-30"),
            ])
    }
}
