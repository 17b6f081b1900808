import Foundation

/// A span of a repository's datestamps, `from` and `until` inclusive, at the granularity the repository takes
/// (whole seconds or whole days, UTC): what one chain of a windowed harvest lists.
package struct DateWindow: Sendable, Hashable, Comparable {
    /// Seconds since 1970 of the first and last instant, whole granules.
    package var from: Int
    package var until: Int
    /// Whether the repository takes days only (`YYYY-MM-DD`): a granule is a day, not a second.
    package var daysOnly: Bool

    package init(from: Int, until: Int, daysOnly: Bool) {
        self.from = from
        self.until = until
        self.daysOnly = daysOnly
    }

    /// A window from two datestamps as a repository writes them (`2024-08-15T13:51:17Z` or `2024-08-15`);
    /// `nil` when either is neither.
    package init?(from: String, until: String, daysOnly: Bool) {
        guard let start = Self.seconds(from), let end = Self.seconds(until) else { return nil }
        let granule = daysOnly ? 86_400 : 1
        self.init(from: start - start % granule, until: end - end % granule, daysOnly: daysOnly)
        guard self.from <= self.until else { return nil }
    }

    private var granule: Int { daysOnly ? 86_400 : 1 }

    /// The window as `from=`/`until=` values.
    package var change: ChangeWindow {
        ChangeWindow(from: Self.datestamp(from, daysOnly: daysOnly), until: Self.datestamp(until, daysOnly: daysOnly))
    }

    /// The two halves, each whole granules; `nil` when the window is one granule (one second, one day) and
    /// cannot be split.
    package func halves() -> (DateWindow, DateWindow)? {
        guard until > from else { return nil }
        let granules = (until - from) / granule
        let middle = from + (granules / 2) * granule
        return (
            DateWindow(from: from, until: middle, daysOnly: daysOnly),
            DateWindow(from: middle + granule, until: until, daysOnly: daysOnly)
        )
    }

    /// `count` windows of equal length that cover this one (fewer when it has fewer granules).
    package func pieces(_ count: Int) -> [DateWindow] {
        let granules = (until - from) / granule + 1
        let parts = max(1, min(count, granules))
        var windows: [DateWindow] = []
        var start = from
        for part in 0..<parts {
            let length = granules / parts + (part < granules % parts ? 1 : 0)
            let end = start + (length - 1) * granule
            windows.append(DateWindow(from: start, until: end, daysOnly: daysOnly))
            start = end + granule
        }
        return windows
    }

    /// What is left of this window around `inner` (a window inside it): the part before and the part after, each
    /// when not empty.
    package func around(_ inner: DateWindow) -> [DateWindow] {
        var parts: [DateWindow] = []
        if inner.from > from { parts.append(DateWindow(from: from, until: inner.from - granule, daysOnly: daysOnly)) }
        if inner.until < until {
            parts.append(DateWindow(from: inner.until + granule, until: until, daysOnly: daysOnly))
        }
        return parts
    }

    package static func < (lhs: DateWindow, rhs: DateWindow) -> Bool {
        (lhs.from, lhs.until) < (rhs.from, rhs.until)
    }

    /// Seconds since 1970 of a UTC datestamp, by hand: `2024-08-15T13:51:17Z`, `2024-08-15`.
    package static func seconds(_ text: String) -> Int? {
        let digits = text.utf8.map { Int($0) - 48 }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count else { return nil }
            var value = 0
            for index in range {
                guard (0...9).contains(digits[index]) else { return nil }
                value = value * 10 + digits[index]
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        var seconds = 0
        if text.utf8.count >= 20 {
            guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else {
                return nil
            }
            seconds = hour * 3_600 + minute * 60 + second
        }
        // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return (era * 146_097 + dayOfEra - 719_468) * 86_400 + seconds
    }

    /// A datestamp for seconds since 1970: `2024-08-15T13:51:17Z`, or the day alone.
    package static func datestamp(_ seconds: Int, daysOnly: Bool) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        // civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let date = "\(year)-\(two(month))-\(two(day))"
        guard !daysOnly else { return date }
        return "\(date)T\(two(rest / 3_600)):\(two(rest % 3_600 / 60)):\(two(rest % 60))Z"
    }
}
