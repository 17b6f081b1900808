/// RFC 4180 fields and rows, with spreadsheet formulas defused.
///
/// A field is quoted when it holds a comma, a quote, CR or LF, and quotes are doubled. A field that a
/// spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`, as
/// OWASP recommends. Written by hand, byte by byte, rather than with CSV.swift, whose writer makes one stream call
/// per byte (too slow for a million rows); the tests read the output back with CSV.swift.
package enum CSVCell {
    /// Bytes that make a spreadsheet treat a cell as a formula, and the guard's own `'`: every cell that starts
    /// with one gets a `'` before it, so that dropping one leading `'` gives the value back (two record ids `-1`
    /// and `'-1` stay two).
    static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D || byte == UInt8(ascii: "'")
    }

    /// One field, defused and quoted as needed.
    package static func field(_ value: String) -> String {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one field, defused and quoted as needed.
    package static func append(_ value: String, to bytes: inout [UInt8]) {
        // Read as one buffer: through `String.UTF8View`, each byte would be an index step and a check (every row
        // is eight fields).
        var value = value
        value.withUTF8 { utf8 in
            let quoted = utf8.contains {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
            }
            if quoted { bytes.append(UInt8(ascii: "\"")) }
            if let first = utf8.first, startsFormula(first) { bytes.append(UInt8(ascii: "'")) }
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
