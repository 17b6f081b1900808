import CLibXML2
import Foundation
import VitrineCore

/// One OAI-PMH response as the streaming parser reads it.
package struct OAIPMHResponse: Sendable, Equatable {
    /// One `<record>`: its header, and its metadata as a small tree.
    package struct Record: Sendable, Equatable {
        package var identifier: String
        package var datestamp: String?
        /// `<header status="deleted">`.
        package var isDeleted: Bool
        /// The single element inside `<metadata>` (`rdf:RDF`, `oai_dc:dc`), when there is one.
        package var metadata: XMLElementNode?
    }

    package var records: [Record] = []
    /// The `<resumptionToken>`'s text; `nil` when the element is absent or empty (the end of the list).
    package var resumptionToken: String?
    /// `completeListSize`, when the server sends it.
    package var completeListSize: Int?
    /// An OAI-PMH `<error code="…">message</error>`.
    package var error: (code: String, message: String)?

    package static func == (lhs: OAIPMHResponse, rhs: OAIPMHResponse) -> Bool {
        lhs.records == rhs.records && lhs.resumptionToken == rhs.resumptionToken
            && lhs.completeListSize == rhs.completeListSize && lhs.error?.code == rhs.error?.code
            && lhs.error?.message == rhs.error?.message
    }
}

/// Reads an OAI-PMH response with libxml2's streaming (SAX2) parser: records are built one at a time as small
/// trees, the page never as a whole document. No external entity or DTD is ever loaded, nothing is fetched
/// from the network, and a response over 64 MB is refused.
///
/// Why libxml2's SAX2 interface and not Foundation's `XMLParser`, which wraps the same parser: on Linux
/// `XMLParser` turns every element name, namespace and attribute into Foundation strings and dictionaries, and
/// with a delegate that does nothing at all it reads about 28,000 Rijksmuseum EDM records a second on this
/// project's 2-core machine; libxml2 itself reads 150,000. Names here are interned by libxml2 and mapped to
/// Swift strings once per page.
package enum OAIPMHPageParser {
    package static let namespace = "http://www.openarchives.org/OAI/2.0/"
    /// A response larger than this is refused rather than parsed.
    package static let maximumSize = 64 << 20

    package static func parse(_ data: Data) throws(OAIPMHParseError) -> OAIPMHResponse {
        guard data.count <= maximumSize else {
            throw OAIPMHParseError("the response is larger than \(maximumSize >> 20) MB")
        }
        let reader = SAXReader()
        let problem = reader.run(data)
        guard problem == nil, reader.sawRoot else {
            throw OAIPMHParseError(problem ?? "not an OAI-PMH document")
        }
        return reader.response
    }
}

/// The SAX2 callbacks' state: the OAI elements it needs, and a tree of the current record only.
private final class SAXReader {
    var response = OAIPMHResponse()
    var sawRoot = false
    /// The open elements of the current record, outermost first, and where each one's text starts in
    /// `textBuffer` (a child's text is cut off the buffer when the child ends, leaving the parent's).
    private var recordStack: [XMLElementNode] = []
    private var textStarts: [Int] = []
    private var textBuffer: [UInt8] = []
    /// Text of the OAI element being read outside records (token, error).
    private var capture: [UInt8]?
    private var captureName = ""
    private var errorCode: String?
    /// libxml2 interns names in a dictionary: the same pointer is the same name for the whole parse.
    private var names: [UnsafePointer<xmlChar>: String] = [:]
    /// Inside a record, the depth of an element being skipped (0: none): what no mapper reads is not built.
    private var skipDepth = 0
    /// Whether an element name, by its interned pointer, is one a record mapper reads.
    private var wanted: [UnsafePointer<xmlChar>: Bool] = [:]

    /// The elements the EDM and Dublin Core mappers read (local names). The element directly inside
    /// `<metadata>` is always kept, whatever it is, so an unknown format is reported by name.
    private static let readByMappers: Set<String> = [
        "record", "header", "identifier", "datestamp", "metadata", "RDF", "dc", "ProvidedCHO", "Aggregation",
        "aggregatedCHO", "WebResource", "Agent", "has_service", "isShownBy", "isShownAt", "object", "title",
        "alternative", "creator", "created", "date", "prefLabel", "relation", "format",
    ]

    /// Parses `data`; returns what was wrong, or `nil`.
    func run(_ data: Data) -> String? {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, _, uri, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            Unmanaged<SAXReader>.fromOpaque(context).takeUnretainedValue()
                .start(localName, uri, Int(attributeCount), attributes)
        }
        handler.endElementNs = { context, localName, _, uri in
            guard let context, let localName else { return }
            Unmanaged<SAXReader>.fromOpaque(context).takeUnretainedValue().end(localName, uri)
        }
        handler.characters = { context, bytes, length in
            guard let context, let bytes else { return }
            Unmanaged<SAXReader>.fromOpaque(context).takeUnretainedValue().characters(bytes, Int(length))
        }
        handler.cdataBlock = handler.characters
        let context = Unmanaged.passUnretained(self).toOpaque()
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> String? in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return "empty response" }
            guard let parser = xmlCreatePushParserCtxt(&handler, context, nil, 0, nil) else {
                return "the XML parser could not start"
            }
            defer { xmlFreeParserCtxt(parser) }
            // No network, no DTD loading, no entity substitution (XML_PARSE_NOENT stays off): a document cannot
            // make the parser read a file or a URL. Errors are collected, not printed.
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
            xmlCtxtUseOptions(parser, options)
            let status = xmlParseChunk(parser, base, Int32(buffer.count), 1)
            guard status != 0 || parser.pointee.wellFormed == 0 else { return nil }
            if let error = xmlCtxtGetLastError(parser), let message = error.pointee.message {
                let text = String(cString: message).trimmingASCIIWhitespace()
                return sawRoot ? "malformed XML at line \(error.pointee.line): \(text)" : text
            }
            return "malformed XML"
        }
    }

    private func name(_ pointer: UnsafePointer<xmlChar>) -> String {
        if let known = names[pointer] { return known }
        let text = String(cString: pointer)
        names[pointer] = text
        return text
    }

    private func isWanted(_ pointer: UnsafePointer<xmlChar>) -> Bool {
        if let known = wanted[pointer] { return known }
        let answer = Self.readByMappers.contains(name(pointer))
        wanted[pointer] = answer
        return answer
    }

    private func start(
        _ localName: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?, _ attributeCount: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        if skipDepth > 0 {
            skipDepth += 1
            return
        }
        if let parent = recordStack.last, parent.name != "metadata", !isWanted(localName) {
            skipDepth = 1
            return
        }
        let elementName = name(localName)
        let namespace = uri.map(name) ?? ""
        // Attributes come as five pointers each: local name, prefix, URI, value start, value end.
        var values: [String: String] = [:]
        if attributeCount > 0, let attributes {
            for index in 0..<attributeCount {
                let base = index * 5
                guard let key = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4]
                else { continue }
                let keyName = name(key)
                guard values[keyName] == nil else { continue }
                let bytes = UnsafeBufferPointer(start: start, count: end - start)
                values[keyName] = Self.unescapeAttribute(String(decoding: bytes, as: UTF8.self))
            }
        }
        if !recordStack.isEmpty || (elementName == "record" && namespace == OAIPMHPageParser.namespace) {
            recordStack.append(XMLElementNode(namespace: namespace, name: elementName, attributes: values))
            textStarts.append(textBuffer.count)
            return
        }
        guard namespace == OAIPMHPageParser.namespace else { return }
        switch elementName {
        case "OAI-PMH":
            sawRoot = true
        case "resumptionToken":
            capture = []
            captureName = elementName
            response.completeListSize = values["completeListSize"].flatMap { Int($0) }
        case "error":
            capture = []
            captureName = elementName
            errorCode = values["code"] ?? "unknown"
        default:
            break
        }
    }

    private func characters(_ bytes: UnsafePointer<xmlChar>, _ length: Int) {
        guard skipDepth == 0 else { return }
        let chunk = UnsafeBufferPointer(start: bytes, count: length)
        if !recordStack.isEmpty {
            textBuffer.append(contentsOf: chunk)
        } else if capture != nil {
            capture?.append(contentsOf: chunk)
        }
    }

    private func end(_ localName: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?) {
        if skipDepth > 0 {
            skipDepth -= 1
            return
        }
        if var node = recordStack.popLast(), let start = textStarts.popLast() {
            node.text = Self.trimmedText(textBuffer[start...])
            textBuffer.removeLast(textBuffer.count - start)
            if recordStack.isEmpty {
                response.records.append(Self.record(from: node))
            } else {
                recordStack[recordStack.count - 1].children.append(node)
            }
            return
        }
        guard let text = capture, uri.map(name) == OAIPMHPageParser.namespace, name(localName) == captureName else {
            return
        }
        let trimmed = String(decoding: text, as: UTF8.self).trimmingASCIIWhitespace()
        switch captureName {
        case "resumptionToken":
            response.resumptionToken = trimmed.isEmpty ? nil : trimmed
        case "error":
            response.error = (errorCode ?? "unknown", trimmed)
        default:
            break
        }
        capture = nil
    }

    /// The text without surrounding XML whitespace; no string is made for whitespace alone (most elements).
    private static func trimmedText(_ bytes: ArraySlice<UInt8>) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// SAX2 hands attribute values as written: the five predefined entities and character references are
    /// still escaped (libxml2 leaves them to the caller when entities are not substituted).
    private static func unescapeAttribute(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "&")) else { return value }
        var result = ""
        var rest = Substring(value)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let hex = entity.hasPrefix("#x") || entity.hasPrefix("#X")
                let digits = entity.dropFirst(hex ? 2 : 1)
                if entity.hasPrefix("#"), let code = UInt32(digits, radix: hex ? 16 : 10),
                    let scalar = Unicode.Scalar(code)
                {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += rest[ampersand...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    private static func record(from node: XMLElementNode) -> OAIPMHResponse.Record {
        let header = node.child("header")
        return OAIPMHResponse.Record(
            identifier: header?.child("identifier")?.text ?? "",
            datestamp: header?.child("datestamp")?.nonBlankText,
            isDeleted: header?.attributes["status"] == "deleted",
            metadata: node.child("metadata")?.children.first
        )
    }
}

/// A parse failure's reason, for the source to wrap in a `HarvestFailure`.
package struct OAIPMHParseError: Error, Sendable {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }
}
