import Foundation
import Testing

@testable import VitrineCore

/// How a windowed OAI-PMH harvest plans a window measured too large: equal pieces, or the bunch its first page
/// shows walked at once with the rest around it; and how windows open at the ends reach past the stated span.
@Suite struct DateWindowPlanTests {
    private static let day = DateWindow(from: "2026-11-23T10:00:00Z", until: "2026-11-24T10:00:00Z", daysOnly: false)
    private static func span(_ window: DateWindow?) -> ClosedRange<Int> {
        (window?.from ?? 0)...(window?.until ?? 0)
    }

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

        let planned = HarvestWorker.split(
            window, size: 1_000, target: 500, chains: 4, span: Self.span(window), first: first)
        #expect(planned.map(\.window) == [second] + window.around(second))
        #expect(planned.map(\.measure) == [false, true, true])
        #expect(planned.map(\.parent) == [nil, 1_000, 1_000])
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
            let planned = HarvestWorker.split(
                window, size: 1_000, target: 500, chains: 4, span: Self.span(window), first: first)
            #expect(planned.map(\.window) == window.pieces(2, in: Self.span(window)))
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

    /// Issue 34, item 2: windows covered only [earliestDatestamp, the server's now], so records stamped before the
    /// claimed earliest date or after the server's clock were never asked for.
    @Test func `the pieces of a whole listing are open before the first cut and after the last`() throws {
        let whole = DateWindow(from: Int?.none, until: Int?.none, daysOnly: false)
        let stated = try #require(
            DateWindow(from: "2026-01-01T00:00:00Z", until: "2026-01-01T00:00:09Z", daysOnly: false))
        let pieces = whole.pieces(3, in: Self.span(stated))
        #expect(
            pieces.map(\.change) == [
                ChangeWindow(from: nil, until: "2026-01-01T00:00:03Z"),
                ChangeWindow(from: "2026-01-01T00:00:04Z", until: "2026-01-01T00:00:06Z"),
                ChangeWindow(from: "2026-01-01T00:00:07Z", until: nil),
            ])
        // Together they hold every datestamp, before the stated span, inside it and after it, each exactly once.
        for stamp in ["1999-01-01T00:00:00Z", "2026-01-01T00:00:05Z", "2026-01-01T00:00:06Z", "2030-01-01T00:00:00Z"] {
            #expect(pieces.filter { $0.contains(stamp) == true }.count == 1, "\(stamp)")
        }
        // A night's listing is open after its start: cut between it and the clock, the last piece stays open.
        let night = try #require(DateWindow(from: "2026-11-23", until: nil, daysOnly: true))
        let clock = try #require(DateWindow(from: "2026-11-23", until: "2026-11-26", daysOnly: true))
        #expect(
            night.pieces(2, in: Self.span(clock)).map(\.change) == [
                ChangeWindow(from: "2026-11-23", until: "2026-11-24"), ChangeWindow(from: "2026-11-25", until: nil),
            ])
        #expect(
            night.around(try #require(DateWindow(from: "2026-11-24", until: "2026-11-24", daysOnly: true))).map(
                \.change) == [
                    ChangeWindow(from: "2026-11-23", until: "2026-11-23"), ChangeWindow(from: "2026-11-25", until: nil),
                ])
    }

    /// Issue 34, item 3: a `completeListSize` near `Int.max` trapped on arithmetic overflow.
    @Test func `a list size near Int.max is clamped, and plans like any large list`() throws {
        let window = try #require(Self.day)
        var first = Self.page(["2026-11-23T18:30:00Z", "2026-11-23T19:30:00Z"])
        first.reportedTotal = Int.max - 1
        let size = try #require(HarvestWorker.size(of: first))
        #expect(size == HarvestWorker.largestListSize)
        let windowing = Windowing(chains: 4, explicit: false)
        let target = windowing.target(total: size, pageSize: 50)
        let planned = HarvestWorker.split(window, size: size, target: target, chains: 4, span: Self.span(window))
        #expect(planned.count == 8)
        first.reportedTotal = -5
        #expect(HarvestWorker.size(of: first) == 0)
    }

    @Test func `a page listing a record outside its window tells that the repository ignores the dates`() throws {
        let window = try #require(Self.day)
        #expect(!HarvestWorker.listsOutside(Self.page(["2026-11-23T18:30:00Z", nil]), window))
        #expect(HarvestWorker.listsOutside(Self.page(["2026-11-23T18:30:00Z", "2026-11-25T00:00:00Z"]), window))
        let late = SourcePage(records: [.deleted(recordID: "x", datestamp: "2026-11-22T00:00:00Z")], continuation: .end)
        #expect(HarvestWorker.listsOutside(late, window))
        // By days, a day's until holds the whole day.
        let days = try #require(DateWindow(from: "2026-11-23", until: "2026-11-23", daysOnly: true))
        #expect(!HarvestWorker.listsOutside(Self.page(["2026-11-23T23:59:59Z"]), days))
    }
}
