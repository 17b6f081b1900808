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

        init(_ fields: OAIRecordFields) {
            self.identifier = fields.string(fields.identifier) ?? ""
            self.datestamp = fields.string(fields.datestamp)
            self.isDeleted = fields.isDeleted
            self.fields = fields
        }
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
/// project's 2-core machine; libxml2 with callbacks that do nothing about 100,000. Names here are interned by
/// libxml2 and looked up once per page; values are copied as bytes into the record's store, and strings are made
/// only by the mapper, of the values an object keeps.
package enum OAIPMHPageParser {
    package static let namespace = "http://www.openarchives.org/OAI/2.0/"
    /// A response larger than this is refused rather than parsed.
    package static let maximumSize = 64 << 20

    /// Parses a page. With a `mapper`, each record is mapped as soon as it ends and only its outcome is kept
    /// (the collector's storage is then reused from record to record).
    package static func parse(_ data: Data, mapper: OAIRecordMapper? = nil) throws(OAIPMHParseError)
        -> OAIPMHResponse
    {
        let parser = try PushParser(data, mapper: mapper)
        _ = data.withUnsafeBytes { parser.feed($0, last: true) }
        return try parser.finish()
    }

    /// Parses a page as `parse(_:mapper:)` does, `sliceSize` bytes at a time, letting other tasks run between
    /// slices. A page takes a millisecond or more to read; the network's work (the next request of a chain, the
    /// response coming in) waits a slice at most instead of a whole page.
    package static func parse(_ data: Data, mapper: OAIRecordMapper? = nil, yieldingEvery sliceSize: Int)
        async throws(OAIPMHParseError) -> OAIPMHResponse
    {
        let parser = try PushParser(data, mapper: mapper)
        var offset = 0
        while true {
            let end = min(offset + max(1, sliceSize), data.count)
            let last = end == data.count
            let read = data.withUnsafeBytes {
                parser.feed(UnsafeRawBufferPointer(rebasing: $0[offset..<end]), last: last)
            }
            guard read, !last else { break }
            offset = end
            await Task.yield()
        }
        return try parser.finish()
    }
}

/// libxml2's push parser and the `SAXReader` its callbacks fill: fed a document a slice at a time, then finished.
/// No network, no DTD loading, no entity substitution (`XML_PARSE_NOENT` stays off): a document cannot make the
/// parser read a file or a URL. Errors are collected, not printed.
private final class PushParser {
    private let state: UnsafeMutablePointer<SAXReader>
    private let context: xmlParserCtxtPtr
    private var problem: String?

    init(_ data: Data, mapper: OAIRecordMapper?) throws(OAIPMHParseError) {
        guard data.count <= OAIPMHPageParser.maximumSize else {
            throw OAIPMHParseError("the response is larger than \(OAIPMHPageParser.maximumSize >> 20) MB")
        }
        guard !data.isEmpty else { throw OAIPMHParseError("empty response") }
        let state = UnsafeMutablePointer<SAXReader>.allocate(capacity: 1)
        state.initialize(to: SAXReader(mapper: mapper))
        var handler = SAXReader.handler
        guard let context = xmlCreatePushParserCtxt(&handler, UnsafeMutableRawPointer(state), nil, 0, nil) else {
            state.deinitialize(count: 1)
            state.deallocate()
            throw OAIPMHParseError("the XML parser could not start")
        }
        xmlCtxtUseOptions(
            context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue))
        self.state = state
        self.context = context
    }

    deinit {
        xmlFreeParserCtxt(context)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Parses the next slice of the document; `last` ends it. `false` once the document is found malformed.
    func feed(_ bytes: UnsafeRawBufferPointer, last: Bool) -> Bool {
        guard problem == nil else { return false }
        let status = xmlParseChunk(
            context, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), last ? 1 : 0)
        guard status != 0 || context.pointee.wellFormed == 0 else { return true }
        if let error = xmlCtxtGetLastError(context), let message = error.pointee.message {
            let text = String(cString: message).trimmingASCIIWhitespace()
            problem = state.pointee.sawRoot ? "malformed XML at line \(error.pointee.line): \(text)" : text
        } else {
            problem = "malformed XML"
        }
        return false
    }

    /// The response read, or what was wrong with the document.
    func finish() throws(OAIPMHParseError) -> OAIPMHResponse {
        if let problem { throw OAIPMHParseError(problem) }
        guard state.pointee.sawRoot else { throw OAIPMHParseError("not an OAI-PMH document") }
        return state.pointee.response
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

    init(mapper: OAIRecordMapper?) {
        self.mapper = mapper
    }

    /// The SAX2 callbacks, each reaching the reader through the parser's context pointer.
    static var handler: xmlSAXHandler {
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
        return handler
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

    /// The attribute values Vitrine reads on this kind of element, unescaped into the record's store; the others
    /// are not copied. Attributes come as five pointers each: local name, prefix, URI, value start, value end.
    private mutating func attributes(
        of element: RecordElement, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> RecordAttributes {
        var values = RecordAttributes()
        guard count > 0, let attributes, element.readsAttributes else { return values }
        for index in 0..<count {
            let base = index * 5
            guard let key = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4]
            else { continue }
            let value = UnsafeBufferPointer(start: start, count: end - start)
            if Self.isNamed(key, "about") {
                if values.about == nil { values.about = record.keep(attributeValue: value) }
            } else if Self.isNamed(key, "resource") {
                if values.resource == nil { values.resource = record.keep(attributeValue: value) }
            } else if Self.isNamed(key, "lang") {
                if values.language == nil, element.hasText { values.language = record.keep(attributeValue: value) }
            } else if Self.isNamed(key, "status") {
                if values.status == nil, element == .header { values.status = record.keep(attributeValue: value) }
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
            let values = self.attributes(of: kind, attributeCount, attributes)
            record.start(
                kind, name: kind == .other ? name(localName) : "", attributes: values, textStart: textBuffer.count)
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
            if let (start, isRead) = record.innermostText {
                record.end(text: isRead ? Self.trimmed(textBuffer[start...]) : [])
                textBuffer.removeLast(textBuffer.count - start)
            } else {
                record.end(text: [])
            }
            if record.isEmpty {
                inRecord = false
                if let mapper {
                    response.outcomes.append(mapper.outcome(for: record.fields))
                } else {
                    response.records.append(OAIPMHResponse.Record(record.fields))
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

    /// The text without surrounding XML whitespace.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return bytes[first...last]
    }

    /// An envelope attribute's value as a string, unescaped.
    private static func unescapeAttribute(_ value: UnsafeBufferPointer<xmlChar>) -> String {
        var bytes: [UInt8] = []
        OAIRecordFields.appendUnescaped(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
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
