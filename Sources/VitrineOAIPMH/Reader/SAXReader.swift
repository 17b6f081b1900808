import CLibXML2
import Foundation
import VitrineCore
import VitrineSources

/// The SAX2 callbacks' state: the OAI elements it needs, and the fields of the current record. A struct the
/// callbacks reach through a pointer, changed in place: no reference counting or exclusivity checks per event.
struct SAXReader {
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
    /// The depth of markup inside a field whose text is read (`<dc:title>Portrait of <i>Saskia</i></dc:title>`):
    /// its text is the field's, the elements themselves are not looked at.
    private var inlineDepth = 0
    /// Whether the record being read is a header alone (`ListIdentifiers`), which ends with the header.
    private var headerOnly = false

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

    /// Dublin Core's element and terms namespaces: what is read inside a wrapper Vitrine does not know.
    private static let dublinCoreNamespaces: Set<String> = [
        "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/terms/",
    ]

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
        if inlineDepth > 0 {
            inlineDepth += 1
            inlineBreak(localName)
            return
        }
        if inRecord {
            let kind = element(localName)
            guard record.accepts(kind),
                !(record.inForeignWrapper || kind.isDublinCoreOnly)
                    || uri.map({ Self.dublinCoreNamespaces.contains(name($0)) }) == true
            else {
                if record.wantsText, isInlineMarkup(localName, uri) {
                    inlineDepth = 1
                    inlineBreak(localName)
                } else {
                    skipDepth = 1
                }
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
            headerOnly = false
        case "header":
            // `ListIdentifiers`: a header outside any record is a record of its own.
            record.reset()
            record.start(.record, name: "", attributes: RecordAttributes(), textStart: textBuffer.count)
            inRecord = true
            headerOnly = true
            let values = self.attributes(of: .header, attributeCount, attributes)
            record.start(.header, name: "", attributes: values, textStart: textBuffer.count)
        case "OAI-PMH":
            sawRoot = true
        case "resumptionToken":
            capture = []
            captureName = elementName
            response.completeListSize = Self.attribute("completeListSize", attributeCount, attributes)
                .flatMap { Int($0) }
        case "responseDate", "repositoryName", "granularity", "earliestDatestamp", "deletedRecord":
            capture = []
            captureName = elementName
        case "error":
            capture = []
            captureName = elementName
            errorCode = Self.attribute("code", attributeCount, attributes) ?? "unknown"
        default:
            break
        }
    }

    /// Whether an element inside a field is markup of its text: HTML written bare (in no namespace, or in the
    /// document's default one, OAI-PMH's or `oai_dc`'s) or as XHTML, but for a script or a style. A node of another
    /// vocabulary (an RDF `foaf:Person` with its name and dates) is no part of the field's text.
    private mutating func isInlineMarkup(_ localName: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?) -> Bool {
        guard uri.map({ Self.markupNamespaces.contains(name($0)) }) ?? true else { return false }
        return !["script", "style"].contains(name(localName).lowercased())
    }

    private static let markupNamespaces: Set<String> = [
        "http://www.w3.org/1999/xhtml", OAIPMHPageParser.namespace, "http://www.openarchives.org/OAI/2.0/oai_dc/",
    ]

    /// Markup inside a field parts its text as HTML in a JSON source's description does.
    private mutating func inlineBreak(_ localName: UnsafePointer<xmlChar>) {
        if let breaks = HTMLText.breaks(forTag: name(localName).lowercased()) {
            textBuffer.append(contentsOf: breaks.utf8)
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
        if inlineDepth > 0 {
            inlineDepth -= 1
            return
        }
        if inRecord {
            if let (start, isRead) = record.innermostText {
                record.end(text: isRead ? Self.trimmed(textBuffer[start...]) : [])
                textBuffer.removeLast(textBuffer.count - start)
            } else {
                record.end(text: [])
            }
            // A header alone ends its record with it.
            if headerOnly, record.depth == 1 { record.end(text: []) }
            if record.isEmpty {
                inRecord = false
                if let mapper {
                    if mapper.isOutsideSet(record.fields) { response.outsideSet += 1 }
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
        case "responseDate":
            response.responseDate = trimmed.isEmpty ? nil : trimmed
        case "repositoryName":
            response.identify.repositoryName = trimmed
        case "granularity":
            response.identify.granularity = trimmed
        case "earliestDatestamp":
            response.identify.earliestDatestamp = trimmed
        case "deletedRecord":
            response.identify.deletedRecord = trimmed
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
        XMLEntities.appendUnescaped(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
