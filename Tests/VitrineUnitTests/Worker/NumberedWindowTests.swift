import Testing
import VitrineTestSupport

@testable import VitrineCore

/// Numbered pages are handed over in number order whatever order they arrive in, with a bounded number waiting:
/// what a list's end rules see (empty pages in a row) is then the same at every `--concurrency`.
@Suite struct NumberedWindowTests {
    @Test(arguments: 0..<40)
    func `pages are handed over in number order, whatever order they arrive in`(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed))
        let width = Int.random(in: 1...8, using: &random)
        let pages = Int.random(in: 1...40, using: &random)
        var window = NumberedWindow(first: 1, width: width, lastAllowed: 1_000, speculate: Bool.random(using: &random))
        var inFlight: [Int] = []
        var handed: [Int] = []
        var mostWaiting = 0
        while true {
            while let number = window.nextToLaunch() { inFlight.append(number) }
            guard !inFlight.isEmpty else { break }
            let arrived = inFlight.remove(at: Int.random(in: 0..<inFlight.count, using: &random))
            let continuation = Continuation.pageNumbers(lastPage: pages, limit: 1_000, pageSize: 4)
            let page = SourcePage(records: [], continuation: arrived == 1 ? continuation : .end)
            handed += try window.accept(arrived, .success(page)).map(\.0)
            mostWaiting = max(mostWaiting, window.parked.count)
        }

        #expect(handed == Array(1...pages), "width \(width)")
        #expect(mostWaiting <= 4 * width)
    }

    /// Found by a review: a first page whose count ends the list before it (`--start-page` past the count, or past
    /// a search's window) was fetched and dropped.
    @Test func `the first page is handed over even where its count ends the list before it`() throws {
        var window = NumberedWindow(first: 12, width: 4, lastAllowed: 1_000, speculate: false)
        #expect(window.nextToLaunch() == 12)
        let page = SourcePage(records: [], continuation: .pageNumbers(lastPage: 10, limit: 10, pageSize: 100))
        #expect(try window.accept(12, .success(page)).map(\.0) == [12])
        #expect(window.nextToLaunch() == nil)
    }
}
