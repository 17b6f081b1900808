/// RFC 4180 fields and rows, with spreadsheet formulas defused.
///
/// A field is quoted when it holds a comma, a quote, CR or LF, and quotes are doubled. A field that a
/// spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR, after any `'`s) gets a
/// leading `'`, as OWASP recommends. Written by hand, byte by byte, rather than with CSV.swift, whose writer makes
/// one stream call per byte (too slow for a million rows); the tests read the output back with CSV.swift.
package enum CSVCell {
    /// Bytes that make a spreadsheet treat a cell as a formula.
    static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }

    /// Whether a cell gets the guard's `'`: one that starts a formula, or whose leading `'`s come before one (so a
    /// value `'-1` stays apart from `-1`, written `'-1`). Dropping one `'` from a cell whose leading `'`s are
    /// followed by a formula's first byte gives every value back; `'t Hooft` is written as it is.
    static func needsGuard(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = utf8.firstIndex(where: { $0 != UInt8(ascii: "'") }) else { return false }
        return startsFormula(utf8[first])
    }

    /// Appends one field, defused and quoted as needed.
    package static func append(_ value: String, to bytes: inout [UInt8]) {
        // Read as one buffer: through `String.UTF8View`, each byte would be an index step and a check, for
        // every field of every row.
        var value = value
        value.withUTF8 { utf8 in
            let quoted = utf8.contains {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
            }
            if quoted { bytes.append(UInt8(ascii: "\"")) }
            if needsGuard(utf8) { bytes.append(UInt8(ascii: "'")) }
            if quoted {
                for byte in utf8 {
                    if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                    bytes.append(byte)
                }
                bytes.append(UInt8(ascii: "\""))
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
    }

    /// Appends one record, ended by CRLF.
    package static func appendRow(_ fields: [String], to bytes: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(field, to: &bytes)
        }
        bytes.append(0x0D)
        bytes.append(0x0A)
    }
}
