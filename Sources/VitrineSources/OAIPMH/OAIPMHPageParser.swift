import CLibXML2
import Foundation
import VitrineCore

/// One OAI-PMH response as the streaming parser reads it.
package struct OAIPMHResponse: Sendable, Equatable {
    /// One `<record>`: its header, and the fields Vitrine reads of its metadata.
    package struct Record: Sendable, Equatable {
        package var identifier: String
        package var datestamp: String?
        /// `<header status="deleted">`.
        package var isDeleted: Bool
        package var fields: OAIRecordFields
    }

    /// The records, when parsed without a mapper.
    package var records: [Record] = []
    /// What each record maps to, when parsed with a mapper (`records` then stays empty).
    package var outcomes: [RecordOutcome] = []
    /// The `<resumptionToken>`'s text; `nil` when the element is absent or empty (the end of the list).
    package var resumptionToken: String?
    /// `completeListSize`, when the server sends it.
    package var completeListSize: Int?
    /// An OAI-PMH `<error code="…">message</error>`.
    package var error: (code: String, message: String)?

    package static func == (lhs: OAIPMHResponse, rhs: OAIPMHResponse) -> Bool {
        lhs.records == rhs.records && lhs.outcomes == rhs.outcomes && lhs.resumptionToken == rhs.resumptionToken
            && lhs.completeListSize == rhs.completeListSize && lhs.error?.code == rhs.error?.code
            && lhs.error?.message == rhs.error?.message
    }
}

/// Reads an OAI-PMH response with libxml2's streaming (SAX2) parser: each record's fields are collected as its
/// elements stream past (no tree of a record or of the page is ever built), and elements no mapper reads are
/// skipped with everything inside them. No external entity or DTD is ever loaded, nothing is fetched
/// from the network, and a response over 64 MB is refused.
///
/// Why libxml2's SAX2 interface and not Foundation's `XMLParser`, which wraps the same parser: on Linux
/// `XMLParser` turns every element name, namespace and attribute into Foundation strings and dictionaries, and
/// with a delegate that does nothing at all it reads about 28,000 Rijksmuseum EDM records a second on this
/// project's 2-core machine; libxml2 itself reads 150,000. Names here are interned by libxml2 and looked up once
/// per page; strings are made only for the values read.
package enum OAIPMHPageParser {
    package static let namespace = "http://www.openarchives.org/OAI/2.0/"
    /// A response larger than this is refused rather than parsed.
    package static let maximumSize = 64 << 20

    /// Parses a page. With a `mapper`, each record is mapped as soon as it ends and only its outcome is kept
    /// (the collector's storage is then reused from record to record).
    package static func parse(_ data: Data, mapper: OAIRecordMapper? = nil) throws(OAIPMHParseError)
        -> OAIPMHResponse
    {
        guard data.count <= maximumSize else {
            throw OAIPMHParseError("the response is larger than \(maximumSize >> 20) MB")
        }
        let (reader, problem) = SAXReader.run(data, mapper: mapper)
        guard problem == nil, reader.sawRoot else {
            throw OAIPMHParseError(problem ?? "not an OAI-PMH document")
        }
        return reader.response
    }
}

/// The SAX2 callbacks' state: the OAI elements it needs, and the fields of the current record. A struct the
/// callbacks reach through a pointer, changed in place: no reference counting or exclusivity checks per event.
private struct SAXReader {
    let mapper: OAIRecordMapper?
    var response = OAIPMHResponse()
    var sawRoot = false
    /// The record being read, when `inRecord`.
    private var record = RecordFieldCollector()
    private var inRecord = false
    /// Text of the open elements whose text is read; an element's text is cut off when it ends.
    private var textBuffer: [UInt8] = []
    /// Text of the OAI element being read outside records (token, error).
    private var capture: [UInt8]?
    private var captureName = ""
    private var errorCode: String?
    /// libxml2 interns names in a dictionary: the same pointer is the same name for the whole parse.
    private var names: [UnsafePointer<xmlChar>: String] = [:]
    private var elements = InternedNameTable<RecordElement>()
    /// Inside a record, the depth of an element being skipped (0: none): what no mapper reads is not looked at.
    private var skipDepth = 0

    /// Parses `data`; returns the state it ended in, and what was wrong or `nil`.
    static func run(_ data: Data, mapper: OAIRecordMapper?) -> (SAXReader, String?) {
        let state = UnsafeMutablePointer<SAXReader>.allocate(capacity: 1)
        state.initialize(to: SAXReader(mapper: mapper))
        defer { state.deallocate() }
        let problem = parse(data, state)
        return (state.move(), problem)
    }

    private static func parse(_ data: Data, _ state: UnsafeMutablePointer<SAXReader>) -> String? {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, _, uri, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            context.assumingMemoryBound(to: SAXReader.self).pointee
                .start(localName, uri, Int(attributeCount), attributes)
        }
        handler.endElementNs = { context, localName, _, uri in
            guard let context, let localName else { return }
            context.assumingMemoryBound(to: SAXReader.self).pointee.end(localName, uri)
        }
        handler.characters = { context, bytes, length in
            guard let context, let bytes else { return }
            context.assumingMemoryBound(to: SAXReader.self).pointee.characters(bytes, Int(length))
        }
        handler.cdataBlock = handler.characters
        let context = UnsafeMutableRawPointer(state)
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
                return state.pointee.sawRoot ? "malformed XML at line \(error.pointee.line): \(text)" : text
            }
            return "malformed XML"
        }
    }

    private mutating func name(_ pointer: UnsafePointer<xmlChar>) -> String {
        if let known = names[pointer] { return known }
        let text = String(cString: pointer)
        names[pointer] = text
        return text
    }

    private mutating func element(_ pointer: UnsafePointer<xmlChar>) -> RecordElement {
        if let known = elements.value(for: pointer) { return known }
        let element = RecordElement(localName: name(pointer))
        elements.insert(element, for: pointer)
        return element
    }

    private static func isNamed(_ pointer: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
        strcmp(
            UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// The attribute values Vitrine reads on this kind of element, unescaped; no string is made for the
    /// others. Attributes come as five pointers each: local name, prefix, URI, value start, value end.
    private static func attributes(
        of element: RecordElement, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> RecordAttributes {
        var values = RecordAttributes()
        guard count > 0, let attributes, element.readsAttributes else { return values }
        for index in 0..<count {
            let base = index * 5
            guard let key = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4]
            else { continue }
            func value() -> String { unescapeAttribute(UnsafeBufferPointer(start: start, count: end - start)) }
            if isNamed(key, "about") {
                if values.about == nil { values.about = value() }
            } else if isNamed(key, "resource") {
                if values.resource == nil { values.resource = value() }
            } else if isNamed(key, "lang") {
                if values.language == nil, element.hasText { values.language = value() }
            } else if isNamed(key, "status") {
                if values.status == nil, element == .header { values.status = value() }
            }
        }
        return values
    }

    /// One attribute's value by local name (the OAI envelope's `completeListSize`, `code`).
    private static func attribute(
        _ name: StaticString, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> String? {
        guard count > 0, let attributes else { return nil }
        for index in 0..<count {
            let base = index * 5
            guard let key = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4],
                isNamed(key, name)
            else { continue }
            return unescapeAttribute(UnsafeBufferPointer(start: start, count: end - start))
        }
        return nil
    }

    private mutating func start(
        _ localName: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?, _ attributeCount: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        if skipDepth > 0 {
            skipDepth += 1
            return
        }
        if inRecord {
            let kind = element(localName)
            guard record.accepts(kind) else {
                skipDepth = 1
                return
            }
            record.start(
                kind, name: kind == .other ? name(localName) : "",
                attributes: Self.attributes(of: kind, attributeCount, attributes), textStart: textBuffer.count)
            return
        }
        let namespace = uri.map { name($0) } ?? ""
        guard namespace == OAIPMHPageParser.namespace else { return }
        let elementName = name(localName)
        switch elementName {
        case "record":
            record.reset()
            record.start(.record, name: "", attributes: RecordAttributes(), textStart: textBuffer.count)
            inRecord = true
        case "OAI-PMH":
            sawRoot = true
        case "resumptionToken":
            capture = []
            captureName = elementName
            response.completeListSize = Self.attribute("completeListSize", attributeCount, attributes)
                .flatMap { Int($0) }
        case "error":
            capture = []
            captureName = elementName
            errorCode = Self.attribute("code", attributeCount, attributes) ?? "unknown"
        default:
            break
        }
    }

    private mutating func characters(_ bytes: UnsafePointer<xmlChar>, _ length: Int) {
        guard skipDepth == 0 else { return }
        if inRecord {
            if record.wantsText { textBuffer.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length)) }
        } else if capture != nil {
            capture?.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
        }
    }

    private mutating func end(_ localName: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?) {
        if skipDepth > 0 {
            skipDepth -= 1
            return
        }
        if inRecord {
            var text = ""
            if let (start, isRead) = record.innermostText {
                if isRead { text = Self.trimmedText(textBuffer[start...]) }
                textBuffer.removeLast(textBuffer.count - start)
            }
            record.end(text: text)
            if record.isEmpty {
                inRecord = false
                let ended = OAIPMHResponse.Record(
                    identifier: record.identifier, datestamp: record.datestamp, isDeleted: record.isDeleted,
                    fields: record.fields)
                if let mapper {
                    response.outcomes.append(mapper.outcome(for: ended))
                } else {
                    response.records.append(ended)
                }
            }
            return
        }
        guard let text = capture, let uri, name(uri) == OAIPMHPageParser.namespace, name(localName) == captureName
        else {
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
    private static func unescapeAttribute(_ bytes: UnsafeBufferPointer<xmlChar>) -> String {
        let value = String(decoding: bytes, as: UTF8.self)
        guard bytes.contains(UInt8(ascii: "&")) else { return value }
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
}

/// Values by libxml2's interned name pointer: a small open-addressed table, since a page has a few dozen
/// distinct names and every element looks one up; past its capacity it falls back to a dictionary.
private struct InternedNameTable<Value> {
    private static var capacity: Int { 256 }
    private var keys = [UInt](repeating: 0, count: capacity)
    private var values = [Value?](repeating: nil, count: capacity)
    private var count = 0
    private var overflow: [UInt: Value] = [:]

    private static func slot(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: ((key >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    func value(for pointer: UnsafePointer<xmlChar>) -> Value? {
        let key = UInt(bitPattern: pointer)
        var index = Self.slot(key)
        while keys[index] != 0 {
            if keys[index] == key { return values[index] }
            index = (index + 1) & (Self.capacity - 1)
        }
        return overflow.isEmpty ? nil : overflow[key]
    }

    mutating func insert(_ value: Value, for pointer: UnsafePointer<xmlChar>) {
        let key = UInt(bitPattern: pointer)
        guard count < Self.capacity / 2 else {
            overflow[key] = value
            return
        }
        var index = Self.slot(key)
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & (Self.capacity - 1) }
        if keys[index] == 0 { count += 1 }
        keys[index] = key
        values[index] = value
    }
}

/// A parse failure's reason, for the source to wrap in a `HarvestFailure`.
package struct OAIPMHParseError: Error, Sendable {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }
}
