/// Numbers as a reader sees them, the same on every machine whatever its locale: used by the Presenter and by
/// sources' notices alike.
package enum NumberText {
    /// Digits grouped by thousands with commas: `1,234,567`.
    package static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    /// `1 object`, `12 objects`, `12,345 objects`.
    package static func counted(_ number: Int, _ noun: String) -> String {
        "\(grouped(number)) \(noun)\(number == 1 ? "" : "s")"
    }

    /// `0.4 s`, `12.0 s`, `3 min 20 s`; `over 100 days` for anything longer (an estimate from a server's
    /// `completeListSize` near `Int.max`, say), never a crash.
    package static func seconds(_ value: Double) -> String {
        guard value.isFinite, value < 8_640_000 else { return value.isNaN ? "? s" : "over 100 days" }
        guard value >= 60 else { return "\((max(0, value) * 10).rounded() / 10) s" }
        let total = Int(value.rounded())
        return "\(total / 60) min \(total % 60) s"
    }
}
