import Foundation

/// RFC 4180 fields and rows, with spreadsheet formulas defused.
///
/// A field is quoted when it holds a comma, a quote, CR or LF, and quotes are doubled. A field that a
/// spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`, as
/// OWASP recommends. Written by hand rather than with CSV.swift, whose writer makes one stream call per byte
/// (too slow for a million rows); the tests read the output back with CSV.swift.
package enum CSVCell {
    /// Characters that make a spreadsheet treat a cell as a formula.
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// One field, defused and quoted as needed.
    package static func field(_ value: String) -> String {
        var value = value
        if let first = value.unicodeScalars.first, formulaStarts.contains(Character(first)) {
            value = "'" + value
        }
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record, ended by CRLF.
    package static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }
}
