import Foundation

/// HTTP dates (RFC 9110 §5.6.7), read by hand: the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT` and the two
/// obsolete forms, `Sunday, 06-Nov-94 08:49:37 GMT` and `Sun Nov  6 08:49:37 1994`. Foundation's
/// `DateFormatter` on Linux leaks a character set per parse and costs far more.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, or `nil` when `text` is none of the three forms or names no real day and time.
    package static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        let day: Int?
        let month: Int?
        var year: Int?
        let time: [Int]
        switch words.count {
        case 6 where words[5].uppercased() == "GMT":  // Sun, 06 Nov 1994 08:49:37 GMT
            (day, month, year) = (Int(words[1]), monthNumber(words[2]), Int(words[3]))
            time = clock(words[4])
        case 4 where words[3].uppercased() == "GMT":  // Sunday, 06-Nov-94 08:49:37 GMT
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3 else { return nil }
            (day, month, year) = (Int(parts[0]), monthNumber(parts[1]), Int(parts[2]))
            if let short = year, short < 100 { year = short + (short < 70 ? 2000 : 1900) }
            time = clock(words[2])
        case 5:  // Sun Nov  6 08:49:37 1994
            (day, month, year) = (Int(words[2]), monthNumber(words[1]), Int(words[4]))
            time = clock(words[3])
        default:
            return nil
        }
        guard let day, let month, let year, time.count == 3, (1900...9999).contains(year) else { return nil }
        let components = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "GMT"), year: year, month: month,
            day: day, hour: time[0], minute: time[1], second: time[2])
        guard components.isValidDate else { return nil }
        return components.date
    }

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    /// `08:49:37` → `[8, 49, 37]`; anything else → `[]`.
    private static func clock(_ text: String) -> [Int] {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 3 ? parts : []
    }
}
