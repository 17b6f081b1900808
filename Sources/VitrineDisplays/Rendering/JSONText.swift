/// JSON written as bytes, for the search index's shards and the JSON Lines export: the one JSON writer, tested
/// against `JSONEncoder`.
enum JSONText {
    /// A JSON string as JSONEncoder writes it (slashes as they are), with `<` as `\u003c` besides.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape (nearly all of them) are copied whole.
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard
                    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
                else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "<"): escape = "\\u003c"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                default:
                    let hex: StaticString = "0123456789abcdef"
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(hex.utf8Start[Int(byte >> 4)])
                    bytes.append(hex.utf8Start[Int(byte & 0x0F)])
                    continue
                }
                escape.withUTF8Buffer { bytes.append(contentsOf: $0) }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A string, or `null` when it is empty (a field the object does not have).
    static func append(orNull text: String, to bytes: inout [UInt8]) {
        text.isEmpty ? bytes.append(contentsOf: "null".utf8) : append(text, to: &bytes)
    }

    /// An array of strings.
    static func append(_ texts: [String], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(text, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A number, or `null`.
    static func append(_ number: Int?, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: (number.map(String.init) ?? "null").utf8)
    }

    /// `"key":`, the key written as it is (Vitrine's own keys need no escape).
    static func key(_ key: StaticString, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "\":".utf8)
    }
}
