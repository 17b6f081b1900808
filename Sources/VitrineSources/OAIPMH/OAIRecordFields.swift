/// What Vitrine reads of one OAI-PMH record, collected while the record streams past: its header and the handful
/// of EDM and Dublin Core fields an `ArtObject` needs. No tree of the record is built.
///
/// Every value is a `Span` of one byte store, `bytes`, which is emptied and reused from record to record: once
/// the store has grown, collecting a record allocates nothing and retains nothing. A mapper makes strings of
/// the few values it keeps; `string(_:)` reads any value.
package struct OAIRecordFields: Sendable, Equatable {
    /// A run of bytes in `bytes`.
    package struct Span: Sendable, Equatable {
        package var start: Int32
        package var count: Int32

        package var isEmpty: Bool { count == 0 }
    }

    /// The element directly inside `<metadata>`.
    package enum Format: Sendable, Equatable {
        /// `rdf:RDF` (or a bare `edm:ProvidedCHO`): Europeana Data Model.
        case edm
        /// `oai_dc:dc`: unqualified Dublin Core.
        case dublinCore
        /// Anything else, by its local name, for the skip reason.
        case other(String)
    }

    /// An element's text and its `xml:lang` (`nil`: no `xml:lang` attribute).
    package struct Labelled: Sendable, Equatable {
        package var text: Span
        package var language: Span?
    }

    /// A reference in either of EDM's shapes: `rdf:resource`, a nested element's `rdf:about`, or plain text.
    package struct Reference: Sendable, Equatable {
        package var resource: Span?
        package var nestedAbout: Span?
        package var text: Span

        /// `rdf:resource`, else the nested element's `rdf:about`, else the text; `nil` when all are empty.
        package var value: Span? {
            if let resource, !resource.isEmpty { return resource }
            if let nestedAbout, !nestedAbout.isEmpty { return nestedAbout }
            return text.isEmpty ? nil : text
        }
    }

    /// `dc:creator`: a reference to an `edm:Agent` (flat shape), an agent nested inside it, or a name.
    package struct Creator: Sendable, Equatable {
        package var resource: Span?
        /// Index in `agents` of the agent nested inside this creator.
        package var nestedAgent: Int?
        package var name: Labelled
    }

    /// An `edm:Agent`, wherever it sits in the record.
    package struct Agent: Sendable, Equatable {
        package var about: Span?
    }

    /// A `skos:prefLabel` of the agent at index `agent` in `agents`.
    package struct AgentLabel: Sendable, Equatable {
        package var agent: Int
        package var label: Labelled
    }

    /// An `edm:WebResource` and its IIIF service (`svcs:has_service`).
    package struct WebResource: Sendable, Equatable {
        package var about: Span
        package var service: Span?
    }

    /// The bytes every span points into.
    package private(set) var bytes: [UInt8] = []
    /// The header's `<identifier>`.
    package var identifier: Span?
    package var datestamp: Span?
    /// `<header status="deleted">`.
    package var isDeleted = false
    package var format: Format?
    /// Whether the record has an `edm:ProvidedCHO`; only the first one is read.
    package var hasProvidedCHO = false
    /// The ProvidedCHO's `rdf:about`.
    package var about: Span?
    /// `dc:identifier`s, in document order (of the ProvidedCHO, or of the Dublin Core record).
    package var identifiers: [Span] = []
    package var titles: [Labelled] = []
    package var alternatives: [Labelled] = []
    package var creators: [Creator] = []
    package var created: [Labelled] = []
    package var dates: [Labelled] = []
    /// Dublin Core's `dc:relation` and `dc:format`, where repositories put image links.
    package var relations: [Span] = []
    package var formats: [Span] = []
    /// The first `ore:Aggregation`'s links.
    package var isShownBy: Reference?
    package var object: Reference?
    package var isShownAt: Reference?
    package var webResources: [WebResource] = []
    package var agents: [Agent] = []
    package var agentLabels: [AgentLabel] = []

    package init() {}

    /// Empties every field, keeping the storage for the next record.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        identifier = nil
        datestamp = nil
        isDeleted = false
        format = nil
        hasProvidedCHO = false
        about = nil
        identifiers.removeAll(keepingCapacity: true)
        titles.removeAll(keepingCapacity: true)
        alternatives.removeAll(keepingCapacity: true)
        creators.removeAll(keepingCapacity: true)
        created.removeAll(keepingCapacity: true)
        dates.removeAll(keepingCapacity: true)
        relations.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
        isShownBy = nil
        object = nil
        isShownAt = nil
        webResources.removeAll(keepingCapacity: true)
        agents.removeAll(keepingCapacity: true)
        agentLabels.removeAll(keepingCapacity: true)
    }

    // MARK: - Keeping bytes

    /// Stores `text` as it is.
    mutating func keep(_ text: some Collection<UInt8>) -> Span {
        let start = bytes.count
        bytes.append(contentsOf: text)
        return span(from: start)
    }

    /// Stores an attribute value as SAX2 hands it over; see `appendUnescaped(_:to:)`.
    mutating func keep(attributeValue value: UnsafeBufferPointer<UInt8>) -> Span {
        let start = bytes.count
        Self.appendUnescaped(value, to: &bytes)
        return span(from: start)
    }

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

    private func span(from start: Int) -> Span {
        Span(start: Int32(truncatingIfNeeded: start), count: Int32(truncatingIfNeeded: bytes.count - start))
    }

    // MARK: - Reading

    /// The text of a span.
    package func string(_ span: Span) -> String {
        bytes.withUnsafeBufferPointer { all in
            String(
                decoding: UnsafeBufferPointer(rebasing: all[Int(span.start)..<Int(span.start + span.count)]),
                as: UTF8.self)
        }
    }

    /// The text of a span, or `nil`.
    package func string(_ span: Span?) -> String? {
        span.map { string($0) }
    }

    /// Whether two spans hold the same bytes.
    func same(_ lhs: Span, _ rhs: Span) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            all[Int(lhs.start)..<Int(lhs.start + lhs.count)].elementsEqual(
                all[Int(rhs.start)..<Int(rhs.start + rhs.count)])
        }
    }

    /// Whether a span holds `lowercased` in any ASCII case (language tags).
    func matches(_ span: Span, lowercased: [UInt8]) -> Bool {
        guard span.count == lowercased.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            all[Int(span.start)..<Int(span.start + span.count)].elementsEqual(lowercased) { byte, lower in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == lower : byte == lower
            }
        }
    }

    /// The IIIF service of the web resource described as `url` in this record.
    package func service(of url: Span) -> Span? {
        webResources.first { same($0.about, url) }?.service
    }

    /// The index of the agent described as `uri` in this record.
    func agent(describing uri: Span) -> Int? {
        agents.firstIndex { $0.about.map { same($0, uri) } ?? false }
    }

    /// The text in the first of `languages` (lower-cased) that has one, then an untagged one, then any: how a
    /// multilingual label is chosen.
    func preferred(_ labels: some Collection<Labelled>, languages: [[UInt8]]) -> Span? {
        let labelled = labels.lazy.filter { !$0.text.isEmpty }
        for language in languages {
            if let match = labelled.first(where: { $0.language.map { matches($0, lowercased: language) } ?? false }) {
                return match.text
            }
        }
        return labelled.first { $0.language == nil }?.text ?? labelled.first?.text
    }

    /// The preferred label of the agent at `index`.
    func preferredLabel(ofAgent index: Int, languages: [[UInt8]]) -> Span? {
        preferred(agentLabels.lazy.filter { $0.agent == index }.map(\.label), languages: languages)
    }
}

/// The elements inside a record that the collector acts on, by local name; everything else is skipped with
/// its subtree (except the format element directly inside `<metadata>`, reported by name).
enum RecordElement: UInt8 {
    case record, header, identifier, datestamp, metadata
    case rdf, dublinCore, providedCHO, aggregation, aggregatedCHO, webResource, agent, hasService
    case isShownBy, isShownAt, object
    case title, alternative, creator, created, date, prefLabel, relation, format
    case other

    init(localName: String) {
        switch localName {
        case "record": self = .record
        case "header": self = .header
        case "identifier": self = .identifier
        case "datestamp": self = .datestamp
        case "metadata": self = .metadata
        case "RDF": self = .rdf
        case "dc": self = .dublinCore
        case "ProvidedCHO": self = .providedCHO
        case "Aggregation": self = .aggregation
        case "aggregatedCHO": self = .aggregatedCHO
        case "WebResource": self = .webResource
        case "Agent": self = .agent
        case "has_service": self = .hasService
        case "isShownBy": self = .isShownBy
        case "isShownAt": self = .isShownAt
        case "object": self = .object
        case "title": self = .title
        case "alternative": self = .alternative
        case "creator": self = .creator
        case "created": self = .created
        case "date": self = .date
        case "prefLabel": self = .prefLabel
        case "relation": self = .relation
        case "format": self = .format
        default: self = .other
        }
    }

    /// Whether any of the element's attributes is read: `rdf:about` and `rdf:resource` on the elements that
    /// describe or point at something, `xml:lang` on text, `status` on the header. Containers whose `rdf:about`
    /// nothing looks up (`ore:Aggregation`, `rdf:RDF`) are left alone, except as the first child of a reference.
    var readsAttributes: Bool {
        switch self {
        case .record, .metadata, .rdf, .dublinCore, .aggregation, .aggregatedCHO, .identifier, .datestamp,
            .relation, .format:
            false
        default:
            true
        }
    }

    /// Whether the element's own text is read (containers' whitespace is never kept).
    var hasText: Bool {
        switch self {
        case .identifier, .datestamp, .hasService, .isShownBy, .isShownAt, .object, .title, .alternative,
            .creator, .created, .date, .prefLabel, .relation, .format:
            true
        default:
            false
        }
    }
}

/// The attributes a record's elements carry that Vitrine reads, kept in the record's byte store.
struct RecordAttributes {
    var about: OAIRecordFields.Span?
    var resource: OAIRecordFields.Span?
    var language: OAIRecordFields.Span?
    var status: OAIRecordFields.Span?
}

/// Builds `OAIRecordFields` from one record's element events, keeping only a stack of the open elements. Every
/// value on the stack is plain data: opening and closing an element copies a few words and nothing else.
struct RecordFieldCollector {
    private typealias Span = OAIRecordFields.Span

    private struct OpenElement {
        var element: RecordElement
        var attributes: RecordAttributes
        var textStart: Int
        /// The `rdf:about` of the first child that has one (EDM's nested shape).
        var firstChildAbout: Span?
        /// The agent this element opened, or the agent nested in this `dc:creator`.
        var agent: Int?
        /// `svcs:has_service` inside this `edm:WebResource`.
        var service: Span?
        /// Whether this is the record's first ProvidedCHO or Aggregation (only those are read).
        var isFirst = false
    }

    private(set) var fields = OAIRecordFields()
    private var open: [OpenElement] = []
    private var hasAggregation = false

    /// Empties the collector for the next record, keeping its storage.
    mutating func reset() {
        fields.reset()
        open.removeAll(keepingCapacity: true)
        hasAggregation = false
    }

    /// Whether an element with this name should be opened here, or skipped with everything inside it.
    func accepts(_ element: RecordElement) -> Bool {
        guard let parent = open.last?.element else { return element == .record }
        if parent == .other { return false }
        return element != .other || parent == .metadata
    }

    /// Whether text arriving now belongs to an element whose text is read.
    var wantsText: Bool { open.last?.element.hasText ?? false }

    /// Where the innermost open element's text starts in the reader's buffer, and whether it is read.
    var innermostText: (start: Int, isRead: Bool)? {
        guard let innermost = open.last else { return nil }
        return (innermost.textStart, innermost.element.hasText)
    }

    var isEmpty: Bool { open.isEmpty }

    /// Stores an attribute value of the element about to open; see `OAIRecordFields.keep(attributeValue:)`.
    mutating func keep(attributeValue value: UnsafeBufferPointer<UInt8>) -> OAIRecordFields.Span {
        fields.keep(attributeValue: value)
    }

    mutating func start(_ element: RecordElement, name: String, attributes: RecordAttributes, textStart: Int) {
        var opened = OpenElement(element: element, attributes: attributes, textStart: textStart)
        let parent = open.indices.last
        if let parent {
            if open[parent].element == .metadata, fields.format == nil {
                switch element {
                case .rdf, .providedCHO: fields.format = .edm
                case .dublinCore: fields.format = .dublinCore
                default: fields.format = .other(name)
                }
            }
            if let about = attributes.about, open[parent].firstChildAbout == nil {
                open[parent].firstChildAbout = about
            }
        }
        switch element {
        case .header:
            fields.isDeleted = fields.string(attributes.status) == "deleted"
        case .providedCHO where !fields.hasProvidedCHO:
            fields.hasProvidedCHO = true
            fields.about = attributes.about
            opened.isFirst = true
        case .aggregation where !hasAggregation:
            hasAggregation = true
            opened.isFirst = true
        case .agent:
            fields.agents.append(OAIRecordFields.Agent(about: attributes.about))
            opened.agent = fields.agents.count - 1
            if let parent, open[parent].element == .creator, open[parent].agent == nil {
                open[parent].agent = opened.agent
            }
        default:
            break
        }
        open.append(opened)
    }

    /// Closes the innermost element; `text` is its own text, trimmed (empty for elements whose text is not read).
    /// Only the text of a field that is kept is copied into the record.
    mutating func end(text: ArraySlice<UInt8>) {
        guard let closed = open.popLast(), let parent = open.indices.last else { return }
        let parentElement = open[parent].element
        let parentIsFirst = open[parent].isFirst
        let inCHO = parentElement == .providedCHO && parentIsFirst
        let inDC = parentElement == .dublinCore
        func labelled() -> OAIRecordFields.Labelled {
            OAIRecordFields.Labelled(text: fields.keep(text), language: closed.attributes.language)
        }
        switch closed.element {
        case .identifier where parentElement == .header:
            fields.identifier = fields.keep(text)
        case .datestamp where parentElement == .header:
            fields.datestamp = text.isEmpty ? nil : fields.keep(text)
        case .identifier where inCHO || inDC:
            if !text.isEmpty { fields.identifiers.append(fields.keep(text)) }
        case .title where inCHO || inDC:
            fields.titles.append(labelled())
        case .alternative where inCHO:
            fields.alternatives.append(labelled())
        case .creator where inCHO || inDC:
            fields.creators.append(
                OAIRecordFields.Creator(
                    resource: closed.attributes.resource, nestedAgent: closed.agent, name: labelled()))
        case .created where inCHO:
            fields.created.append(labelled())
        case .date where inCHO || inDC:
            fields.dates.append(labelled())
        case .relation where inDC:
            if !text.isEmpty { fields.relations.append(fields.keep(text)) }
        case .format where inDC:
            if !text.isEmpty { fields.formats.append(fields.keep(text)) }
        case .prefLabel where parentElement == .agent:
            if let agent = open[parent].agent {
                fields.agentLabels.append(OAIRecordFields.AgentLabel(agent: agent, label: labelled()))
            }
        case .hasService where parentElement == .webResource:
            open[parent].service =
                closed.attributes.resource.flatMap { $0.isEmpty ? nil : $0 } ?? fields.keep(text)
        case .webResource:
            if let about = closed.attributes.about {
                fields.webResources.append(OAIRecordFields.WebResource(about: about, service: closed.service))
            }
        case .isShownBy, .object, .isShownAt:
            guard parentElement == .aggregation, parentIsFirst else { break }
            let reference = OAIRecordFields.Reference(
                resource: closed.attributes.resource, nestedAbout: closed.firstChildAbout, text: fields.keep(text))
            switch closed.element {
            case .isShownBy where fields.isShownBy == nil: fields.isShownBy = reference
            case .object where fields.object == nil: fields.object = reference
            case .isShownAt where fields.isShownAt == nil: fields.isShownAt = reference
            default: break
            }
        default:
            break
        }
    }
}
