/// UTC datestamps as repositories write them (`2024-08-15T13:51:17Z`, `2024-08-15`, and what real servers add:
/// fractions of a second, a missing `Z`): read to seconds, written back at a granularity, and ordered.
package enum Datestamp {
    /// Seconds since 1970 of a datestamp, from its date and, when present, its time of day; a fraction of a second
    /// is ignored, and a zone offset after the time (`+01:00`, `-0500`), which the protocol forbids and servers
    /// send, applied. `nil` when it is not a datestamp.
    package static func seconds(_ text: String) -> Int? {
        guard let local = localSeconds(text) else { return nil }
        return local - offset(text.utf8.dropFirst(19))
    }

    /// The offset from UTC a time ends with, in seconds (after any fraction): `+01:00`, `+0100`, `+01`; 0 for `Z`,
    /// none or anything else.
    private static func offset(_ rest: Substring.UTF8View.SubSequence) -> Int {
        let zone = Array(rest.drop { $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) })
        guard let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return 0 }
        let digits = zone.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard [2, 4].contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
            zone.count == digits.count + 1 || (zone.count == 6 && zone[3] == UInt8(ascii: ":"))
        else { return 0 }
        let values = digits.map { Int($0 - 0x30) }
        let hours = values[0] * 10 + values[1]
        let minutes = values.count == 4 ? values[2] * 10 + values[3] : 0
        guard hours < 24, minutes < 60 else { return 0 }
        return (sign == UInt8(ascii: "+") ? 1 : -1) * (hours * 3_600 + minutes * 60)
    }

    /// `seconds` without the zone: the date and time as written.
    private static func localSeconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8.prefix(19))
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        var seconds = 0
        if bytes.count > 10 {
            guard bytes.count == 19, bytes[10] == UInt8(ascii: "T"), let hour = number(11..<13),
                let minute = number(14..<16), let second = number(17..<19), hour < 24, minute < 60, second < 61
            else { return nil }
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

    /// How far before a server's clock a change listed after it may be dated: a repository dates a record when its
    /// change began (a transaction's start), and its clock may run a little ahead of its datestamps. Lists of
    /// changes reach back this far.
    package static let settling = 5 * 60

    /// `text`, a time of day, `settling` earlier; a day alone as it is (a list by days holds its whole day).
    package static func settled(_ text: String) -> String {
        guard text.utf8.count > 10, let seconds = seconds(text) else { return text }
        return Self.text(seconds - settling, daysOnly: false)
    }

    /// A datestamp for seconds since 1970: `2024-08-15T13:51:17Z`, or the day alone.
    package static func text(_ seconds: Int, daysOnly: Bool) -> String {
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
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let yearText = String(year)
        let date = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-\(two(month))-\(two(day))"
        guard !daysOnly else { return date }
        return "\(date)T\(two(rest / 3_600)):\(two(rest % 3_600 / 60)):\(two(rest % 60))Z"
    }

    /// A datestamp as a repository of this granularity takes it in `from`/`until`: whole seconds (fractions
    /// dropped) or the day alone. A time written otherwise (`…T12:00Z`, lower case) gives its day, which asks for
    /// more, never less; text that is no datestamp is returned as it is.
    package static func normalized(_ text: String, daysOnly: Bool) -> String {
        guard let seconds = seconds(text) else {
            let day = String(text.prefix(10))
            return Self.seconds(day) != nil ? day : text
        }
        return Self.text(seconds, daysOnly: daysOnly)
    }

    /// Whether `new` is later than `old`: by time where both are datestamps, else by their bytes; no datestamp is
    /// earlier than any. `nil` when they are the same instant.
    package static func isLater(_ new: String?, than old: String?) -> Bool? {
        switch (new, old) {
        case (nil, nil): return nil
        case (nil, _): return false
        case (_, nil): return true
        case (.some(let new), .some(let old)):
            if let newSeconds = seconds(new), let oldSeconds = seconds(old) {
                return newSeconds == oldSeconds ? nil : newSeconds > oldSeconds
            }
            if new.utf8.elementsEqual(old.utf8) { return nil }
            return old.utf8.lexicographicallyPrecedes(new.utf8)
        }
    }
}
