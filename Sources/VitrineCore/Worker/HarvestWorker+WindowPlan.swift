// How date windows are planned from what pages say, with nothing the server says trusted unchecked: sizes
// clamped, a window cut only while its size shrinks, a page dated outside its window noticed. Pure: no request.
extension HarvestWorker {
    /// A window still to walk, with what is known of its size.
    struct PlannedWindow: Sendable {
        var window: DateWindow
        /// Records it holds, as measured (or its share of its parent's, until measured).
        var estimate: Int
        /// Whether its first page decides whether to cut it.
        var measure: Bool
        /// The measured size of the window it was cut from: a window is cut only while its size shrinks.
        var parent: Int?
        /// Whether it lists again, after every window, what was saved since the span's end (`listSinceSpan`).
        var relists = false
    }

    /// The largest list size believed (a billion records): a `completeListSize` beyond it is taken as this.
    static let largestListSize = 1 << 30

    /// A page's `completeListSize`, clamped to `0...largestListSize`.
    static func size(of page: SourcePage) -> Int? {
        page.reportedTotal.map { min(max($0, 0), largestListSize) }
    }

    /// Whether a page lists a record (or a deleted one) dated outside `window`.
    static func listsOutside(_ page: SourcePage, _ window: DateWindow) -> Bool {
        page.records.contains { record in
            switch record {
            case .object(let object): object.datestamp.flatMap(window.contains) == false
            case .deleted(_, let datestamp): datestamp.flatMap(window.contains) == false
            case .skipped: false
            }
        }
    }

    /// A window measured too large (`size` records), cut into as many equal pieces as it holds targets (2 to twice
    /// the chains): a repository's datestamps bunch up (a bulk load, a re-index in one second), so a few cuts of
    /// many pieces find the bunch in fewer round trips than halving, and an empty piece costs one short answer.
    ///
    /// When every object of the window's first page (`first`) has one datestamp, the bunch is likely there: that
    /// granule is planned as a window of its own, walked at once (it cannot be cut), and the rest of the window
    /// around it is measured as usual.
    static func split(
        _ window: DateWindow, size: Int, target: Int, chains: Int, span: ClosedRange<Int>, first: SourcePage? = nil
    ) -> [PlannedWindow] {
        if let bunch = first.flatMap({ Self.bunch(of: $0, in: window) }) {
            return [PlannedWindow(window: bunch, estimate: size, measure: false)]
                + window.around(bunch).map { PlannedWindow(window: $0, estimate: 0, measure: true, parent: size) }
        }
        let count = min(max(2, size / max(target, 1) + (size % max(target, 1) == 0 ? 0 : 1)), 2 * chains)
        let pieces = window.pieces(count, in: span)
        return pieces.map {
            PlannedWindow(window: $0, estimate: size / pieces.count, measure: true, parent: size)
        }
    }

    /// The one granule of `window` (not the whole of it) in which every object of its first page was changed, when
    /// the page has at least two objects; `nil` otherwise.
    static func bunch(of first: SourcePage, in window: DateWindow) -> DateWindow? {
        var bunch: DateWindow?
        var objects = 0
        for case .object(let object) in first.records {
            guard let datestamp = object.datestamp,
                let granule = DateWindow(from: datestamp, until: datestamp, daysOnly: window.daysOnly),
                bunch == nil || bunch == granule
            else { return nil }
            bunch = granule
            objects += 1
        }
        guard objects >= 2, let bunch, window.encloses(bunch), bunch != window else { return nil }
        return bunch
    }

    /// A page's place in the source's order: windows by their start (the one open before first), pages in order
    /// within a window; a window's second attempt after its first's (`attempt` 1); the list since the span's end
    /// after every window, at `PageReference.relisted`.
    static func place(
        of page: Int, in planned: PlannedWindow, span: ClosedRange<Int>, attempt: Int = 0,
        cursor: PageCursor = .token(nil)
    ) -> PageReference {
        let window = planned.window
        let last = PageReference.relisted.lowerBound / pagesPerWindow - 1
        let ordinal =
            planned.relists
            ? last + 1 : window.from.map { min(max(0, ($0 - span.lowerBound) / window.granule + 1), last) } ?? 0
        return PageReference(
            index: ordinal * pagesPerWindow + attempt * pagesPerAttempt + min(page, pagesPerAttempt - 1),
            cursor: cursor)
    }

    /// The places in the source's order that each window's pages take, from its start's, half for each attempt.
    static let pagesPerWindow = 1_000_000
    static let pagesPerAttempt = pagesPerWindow / 2
}
