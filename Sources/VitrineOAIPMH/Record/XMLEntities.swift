/// The escapes libxml2 leaves in attribute values and in raw bytes when entities are not substituted: the five
/// predefined entities and character references.
enum XMLEntities {
    /// Appends an attribute value as SAX2 hands it over, unescaped: the five predefined entities and character
    /// references are still escaped there (libxml2 leaves them to the caller when entities are not substituted).
    static func appendUnescaped(_ value: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        guard value.contains(UInt8(ascii: "&")) else {
            bytes.append(contentsOf: value)
            return
        }
        var index = value.startIndex
        while index < value.endIndex {
            guard value[index] == UInt8(ascii: "&"),
                let semicolon = value[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")),
                let decoded = entity(value[(index + 1)..<semicolon])
            else {
                bytes.append(value[index])
                index += 1
                continue
            }
            bytes.append(contentsOf: String(decoded).utf8)
            index = semicolon + 1
        }
    }

    /// The character an entity or character reference (`amp`, `#233`, `#xE9`) stands for.
    private static func entity(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case let reference where reference.hasPrefix("#x") || reference.hasPrefix("#X"):
            return UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        case let reference where reference.hasPrefix("#"):
            return UInt32(reference.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        default:
            return nil
        }
    }
}
