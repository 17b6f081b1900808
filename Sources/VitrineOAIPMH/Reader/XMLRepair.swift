import CLibXML2
import Foundation

/// Mends what real repositories send that XML 1.0 forbids, so that one bad title does not fail its page (and,
/// for a token chain, every page after it). Used only after a page has failed to parse: well-formed pages never
/// pay for it.
///
/// - Control characters XML 1.0 does not allow (0x00–0x08, 0x0B, 0x0C, 0x0E–0x1F), raw or as character
///   references (`&#x1;`, `&#11;`, also surrogates and U+FFFE/U+FFFF), become a space.
/// - Bytes that are not UTF-8, in a document that declares UTF-8 (or nothing), become U+FFFD.
/// - Entities declared in the document's internal subset (`<!ENTITY name "value">`) are replaced by their
///   value, one level deep and only for short values, so no declaration can blow a page up; the DOCTYPE is then
///   dropped. HTML's named characters (`&eacute;`) become theirs; any other undeclared entity becomes U+FFFD.
package enum XMLRepair {
    /// The longest entity value expanded; longer ones are replaced by U+FFFD.
    static let longestEntityValue = 1_024

    /// The mended document and how many places were changed; `nil` when nothing needed mending.
    package static func repaired(_ data: Data) -> (data: Data, changes: Int)? {
        var changes = 0
        var bytes = [UInt8](data)
        if declaresUTF8(bytes) {
            let text = String(decoding: bytes, as: UTF8.self)
            let reencoded = Array(text.utf8)
            if reencoded != bytes {
                changes += max(1, text.unicodeScalars.filter { $0 == "\u{FFFD}" }.count)
                bytes = reencoded
            }
        }
        var entities: [String: String] = [:]
        if let (withoutDoctype, declared) = removingInternalSubset(bytes) {
            bytes = withoutDoctype
            entities = declared
            changes += 1
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                output.append(0x20)
                changes += 1
                index += 1
                continue
            }
            // A CDATA section, comment or processing instruction holds no references: copied as it is (its
            // control characters still go).
            if byte == UInt8(ascii: "<"), let closing = Self.literalSection(bytes, at: index) {
                let end = bytes[(index + 2)...].firstRange(of: closing)?.upperBound ?? bytes.count
                for inner in bytes[index..<end] {
                    let isControl = inner < 0x20 && inner != 0x09 && inner != 0x0A && inner != 0x0D
                    output.append(isControl ? 0x20 : inner)
                    if isControl { changes += 1 }
                }
                index = end
                continue
            }
            if byte == UInt8(ascii: "&"),
                let (replacement, length) = reference(in: bytes, at: index, entities: entities)
            {
                output.append(contentsOf: replacement)
                changes += 1
                index += length
                continue
            }
            output.append(byte)
            index += 1
        }
        return changes == 0 ? nil : (Data(output), changes)
    }

    /// The end marker of the CDATA section, comment or processing instruction starting at `index`, if one does.
    private static func literalSection(_ bytes: [UInt8], at index: Int) -> [UInt8]? {
        let rest = bytes[index...]
        if rest.starts(with: "<![CDATA[".utf8) { return Array("]]>".utf8) }
        if rest.starts(with: "<!--".utf8) { return Array("-->".utf8) }
        if rest.starts(with: "<?".utf8) { return Array("?>".utf8) }
        return nil
    }

    /// Whether the XML declaration names UTF-8, or names no encoding (UTF-8 is then the default).
    private static func declaresUTF8(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(200), as: UTF8.self).lowercased()
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return true }
        let declaration = head[..<end.lowerBound]
        guard let encoding = declaration.range(of: "encoding=") else { return true }
        let value = declaration[encoding.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
        return value == "utf-8" || value == "utf8"
    }

    /// A character or entity reference at `start` that XML forbids or the parser cannot resolve: what replaces
    /// it and how many bytes it spans; `nil` for a reference that is fine as it is.
    private static func reference(in bytes: [UInt8], at start: Int, entities: [String: String])
        -> (replacement: [UInt8], length: Int)?
    {
        let end = min(bytes.count, start + 40)
        // A `&` that starts no reference (`Smith & Sons`, `&eacute` without its `;`) is an ampersand.
        let isNameByte = { (byte: UInt8) in
            byte >= 0x80 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || Array("#_-.:".utf8).contains(byte)
        }
        let semicolon = bytes[(start + 1)..<end].firstIndex { !isNameByte($0) }
        guard let semicolon, semicolon > start + 1, bytes[semicolon] == UInt8(ascii: ";") else {
            return (Array("&amp;".utf8), 1)
        }
        let name = String(decoding: bytes[(start + 1)..<semicolon], as: UTF8.self)
        let length = semicolon - start + 1
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value else { return (Array("&#xFFFD;".utf8), length) }
            return isAllowed(value) ? nil : (Array(" ".utf8), length)
        }
        if ["amp", "lt", "gt", "quot", "apos"].contains(name) { return nil }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == ":" })
        else { return nil }
        if let value = entities[name], value.utf8.count <= longestEntityValue, !value.contains("&") {
            // Characters beyond ASCII as references: the same in a page of any encoding.
            return (
                Array(value.unicodeScalars.map { $0.isASCII ? String($0) : "&#\($0.value);" }.joined().utf8), length
            )
        }
        // HTML's named characters (`&eacute;`, `&nbsp;`), which repositories write as if XML had them: as character
        // references, which mean the same in a document of any encoding.
        let html = name.withCString { htmlEntityLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }
        if let html, isAllowed(html.pointee.value) {
            return (Array("&#\(html.pointee.value);".utf8), length)
        }
        return (Array("&#xFFFD;".utf8), length)
    }

    /// Characters XML 1.0 allows (its `Char` production).
    private static func isAllowed(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// The document without its `<!DOCTYPE … [ … ]>`, and the general entities its internal subset declared with
    /// a literal value.
    private static func removingInternalSubset(_ bytes: [UInt8]) -> ([UInt8], [String: String])? {
        let head = bytes.prefix(64 << 10)
        guard let doctype = find(Array("<!DOCTYPE".utf8), in: head) else { return nil }
        var index = doctype
        var depth = 0
        var quote: UInt8?
        while index < head.count {
            let byte = head[head.startIndex + index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">") && depth == 0 {
                break
            }
            index += 1
        }
        guard index < head.count else { return nil }
        let declaration = String(decoding: bytes[doctype...index], as: UTF8.self)
        var entities: [String: String] = [:]
        for match in declaration.matches(of: /<!ENTITY\s+([A-Za-z_][\w.\-]*)\s+(?:"([^"]*)"|'([^']*)')\s*>/) {
            let value = match.output.2 ?? match.output.3 ?? ""
            entities[String(match.output.1)] = String(value)
        }
        return (Array(bytes[..<doctype]) + Array(bytes[(index + 1)...]), entities)
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for offset in 0...(haystack.count - needle.count)
        where haystack[haystack.startIndex + offset] == needle[0]
            && haystack[(haystack.startIndex + offset)..<(haystack.startIndex + offset + needle.count)].elementsEqual(
                needle)
        {
            return offset
        }
        return nil
    }
}
