/// The first and last year a date as museums write it may mean, for sorting and browsing by period: `1642`,
/// `c. 1665 - c. 1670`, `1885–86`, `17th century`, `1880s`, `500 BCE`, `ca. 2000–1800 B.C.`. Years BCE are negative.
/// Where the text holds no year, there is no range: nothing is guessed.
package enum YearRange {
    /// The range `text` names; `nil` when it names no year.
    package static func parse(_ text: String?) -> (begin: Int, end: Int)? {
        guard let text, !text.isEmpty else { return nil }
        let lowered = text.lowercased()
        let isBCE = lowered.contains("bc") || lowered.contains("b.c") || lowered.contains("v. chr")
        var years: [Int] = []
        var index = lowered.startIndex
        while index < lowered.endIndex {
            guard lowered[index].isASCII, lowered[index].isNumber else {
                index = lowered.index(after: index)
                continue
            }
            let start = index
            while index < lowered.endIndex, lowered[index].isASCII, lowered[index].isNumber {
                index = lowered.index(after: index)
            }
            let digits = lowered[start..<index]
            guard digits.count <= 4, let number = Int(digits) else { continue }
            let rest = lowered[index...]
            if let century = centuryNumber(number, rest: rest) {
                years += [(century - 1) * 100, (century - 1) * 100 + 99]
            } else if rest.hasPrefix("s"), digits.count >= 3, number % 10 == 0 {
                // `1880s`, `1600s`.
                years += [number, number + (number % 100 == 0 ? 99 : 9)]
            } else if digits.count == 2, let last = years.last, last >= 100, isAfterDash(lowered[..<start]) {
                // `1885–86`: the later year's century is the earlier one's.
                let full = last / 100 * 100 + number
                years.append(full >= last ? full : full + 100)
            } else if digits.count >= 3 || (isBCE && digits.count >= 1) {
                years.append(number)
            }
        }
        guard let first = years.first, let last = years.last else { return nil }
        if isBCE { return (-max(first, last), -min(first, last)) }
        return (min(first, last), max(first, last))
    }

    /// `17` of `17th century` (`th`, `st`, `nd`, `rd`, then the word `century` or `c.`); `nil` otherwise.
    private static func centuryNumber(_ number: Int, rest: Substring) -> Int? {
        guard (1...21).contains(number) else { return nil }
        for suffix in ["th", "st", "nd", "rd", "e", "de"] where rest.hasPrefix(suffix) {
            let after = rest.dropFirst(suffix.count).drop { $0 == " " || $0 == "-" }
            if after.hasPrefix("cent") || after.hasPrefix("c.") || after.hasPrefix("eeuw") { return number }
        }
        return nil
    }

    /// Whether the text before a number ends in a dash or a slash (spaces aside): `1885–86`, `1885/86`.
    private static func isAfterDash(_ before: Substring) -> Bool {
        guard let last = before.last(where: { $0 != " " }) else { return false }
        return last == "-" || last == "–" || last == "—" || last == "/"
    }
}
