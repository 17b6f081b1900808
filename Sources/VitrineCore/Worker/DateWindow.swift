/// A span of a repository's datestamps, `from` and `until` inclusive, at the granularity the repository takes
/// (whole seconds or whole days, UTC): what one chain of a windowed harvest lists. A side left open (`nil`) is
/// sent without its argument, so the first window of a harvest reaches back past any earliest datestamp a
/// repository claims, and the last one forward past its clock.
package struct DateWindow: Sendable, Hashable, Comparable {
    /// Seconds since 1970 of the first and last instant, whole granules; `nil`: open on that side.
    package var from: Int?
    package var until: Int?
    /// Whether the repository takes days only (`YYYY-MM-DD`): a granule is a day, not a second.
    package var daysOnly: Bool

    package init(from: Int?, until: Int?, daysOnly: Bool) {
        self.from = from
        self.until = until
        self.daysOnly = daysOnly
    }

    /// A window from datestamps as a repository writes them (`2024-08-15T13:51:17Z` or `2024-08-15`), each side
    /// open when `nil`; `nil` when a side given is no datestamp, or the window is empty.
    package init?(from: String?, until: String?, daysOnly: Bool) {
        let granule = daysOnly ? 86_400 : 1
        func granuleStart(_ text: String?) -> Int?? {
            guard let text else { return .some(nil) }
            guard let seconds = Datestamp.seconds(text) else { return nil }
            return .some(seconds - Self.floorRemainder(seconds, granule))
        }
        guard let start = granuleStart(from), let end = granuleStart(until) else { return nil }
        self.init(from: start, until: end, daysOnly: daysOnly)
        if let start, let end, start > end { return nil }
    }

    /// The length of a granule, in seconds.
    package var granule: Int { daysOnly ? 86_400 : 1 }

    /// The window as `from=`/`until=` values (`nil`: not sent).
    package var change: ChangeWindow {
        ChangeWindow(
            from: from.map { Datestamp.text($0, daysOnly: daysOnly) },
            until: until.map { Datestamp.text($0, daysOnly: daysOnly) })
    }

    /// The part of this window inside `span` (whose ends are whole granules): where it can be cut.
    package func known(in span: ClosedRange<Int>) -> ClosedRange<Int>? {
        let lower = from ?? span.lowerBound
        let upper = until ?? span.upperBound
        return lower <= upper ? lower...upper : nil
    }

    /// Whether the window can be cut within `span`: its known part is at least two granules.
    package func canCut(in span: ClosedRange<Int>) -> Bool {
        guard let known = known(in: span) else { return false }
        return known.upperBound > known.lowerBound
    }

    /// `count` windows of about equal length that cover this one (fewer when its known part has fewer granules):
    /// the first keeps this window's `from` and the last its `until`, open or not.
    package func pieces(_ count: Int, in span: ClosedRange<Int>) -> [DateWindow] {
        guard let known = known(in: span) else { return [self] }
        let granules = (known.upperBound - known.lowerBound) / granule + 1
        let parts = max(1, min(count, granules))
        var windows: [DateWindow] = []
        var start = known.lowerBound
        for part in 0..<parts {
            let length = granules / parts + (part < granules % parts ? 1 : 0)
            let end = start + (length - 1) * granule
            windows.append(
                DateWindow(
                    from: part == 0 ? from : start, until: part == parts - 1 ? until : end, daysOnly: daysOnly))
            start = end + granule
        }
        return windows
    }

    /// What is left of this window around `inner` (a closed window inside it): the part before and the part after,
    /// each when not empty.
    package func around(_ inner: DateWindow) -> [DateWindow] {
        guard let innerFrom = inner.from, let innerUntil = inner.until else { return [] }
        var parts: [DateWindow] = []
        if from.map({ innerFrom > $0 }) ?? true {
            parts.append(DateWindow(from: from, until: innerFrom - granule, daysOnly: daysOnly))
        }
        if until.map({ innerUntil < $0 }) ?? true {
            parts.append(DateWindow(from: innerUntil + granule, until: until, daysOnly: daysOnly))
        }
        return parts
    }

    /// Whether a datestamp falls in the window, at its granularity; `nil` when the text is no datestamp.
    package func contains(_ datestamp: String) -> Bool? {
        guard let seconds = Datestamp.seconds(datestamp) else { return nil }
        let start = seconds - Self.floorRemainder(seconds, granule)
        return (from.map { start >= $0 } ?? true) && (until.map { start <= $0 } ?? true)
    }

    /// Whether `inner` lies inside this window.
    package func encloses(_ inner: DateWindow) -> Bool {
        let lower = from.map { start in inner.from.map { $0 >= start } ?? false } ?? true
        let upper = until.map { end in inner.until.map { $0 <= end } ?? false } ?? true
        return lower && upper
    }

    package static func < (lhs: DateWindow, rhs: DateWindow) -> Bool {
        (lhs.from ?? Int.min, lhs.until ?? Int.max) < (rhs.from ?? Int.min, rhs.until ?? Int.max)
    }

    /// `value` modulo `divisor`, never negative (days before 1970 included).
    private static func floorRemainder(_ value: Int, _ divisor: Int) -> Int {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
