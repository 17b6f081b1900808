/// What Vitrine reads of one OAI-PMH record's metadata, collected while the record streams past: the handful
/// of EDM and Dublin Core fields an `ArtObject` needs, as plain strings. No tree of the record is built.
package struct OAIRecordFields: Sendable, Equatable {
    /// The element directly inside `<metadata>`.
    package enum Format: Sendable, Equatable {
        /// `rdf:RDF` (or a bare `edm:ProvidedCHO`): Europeana Data Model.
        case edm
        /// `oai_dc:dc`: unqualified Dublin Core.
        case dublinCore
        /// Anything else, by its local name, for the skip reason.
        case other(String)
    }

    /// A reference in either of EDM's shapes: `rdf:resource`, a nested element's `rdf:about`, or plain text.
    package struct Reference: Sendable, Equatable {
        package var resource: String?
        package var nestedAbout: String?
        package var text: String = ""

        /// `rdf:resource`, else the nested element's `rdf:about`, else the text.
        package var value: String? {
            if let resource, !resource.isEmpty { return resource }
            if let nestedAbout, !nestedAbout.isEmpty { return nestedAbout }
            return text.isEmpty ? nil : text
        }
    }

    /// `dc:creator`: a reference to an `edm:Agent` (flat shape), an agent nested inside it, or a name.
    package struct Creator: Sendable, Equatable {
        package var resource: String?
        /// Index in `agents` of the agent nested inside this creator.
        package var nestedAgent: Int?
        package var name: LabelledText
    }

    /// An `edm:Agent`, wherever it sits in the record.
    package struct Agent: Sendable, Equatable {
        package var about: String?
        package var labels: [LabelledText] = []
    }

    /// An `edm:WebResource` and its IIIF service (`svcs:has_service`).
    package struct WebResource: Sendable, Equatable {
        package var about: String
        package var service: String?
    }

    package var format: Format?
    /// Whether the record has an `edm:ProvidedCHO`; only the first one is read.
    package var hasProvidedCHO = false
    /// The ProvidedCHO's `rdf:about`.
    package var about: String?
    /// `dc:identifier`s, in document order (of the ProvidedCHO, or of the Dublin Core record).
    package var identifiers: [String] = []
    package var titles: [LabelledText] = []
    package var alternatives: [LabelledText] = []
    package var creators: [Creator] = []
    package var created: [LabelledText] = []
    package var dates: [LabelledText] = []
    /// Dublin Core's `dc:relation` and `dc:format`, where repositories put image links.
    package var relations: [String] = []
    package var formats: [String] = []
    /// The first `ore:Aggregation`'s links.
    package var isShownBy: Reference?
    package var object: Reference?
    package var isShownAt: Reference?
    package var webResources: [WebResource] = []
    package var agents: [Agent] = []

    package init() {}

    /// Empties every field, keeping the arrays' storage for the next record.
    mutating func reset() {
        format = nil
        hasProvidedCHO = false
        about = nil
        titles.removeAll(keepingCapacity: true)
        alternatives.removeAll(keepingCapacity: true)
        created.removeAll(keepingCapacity: true)
        dates.removeAll(keepingCapacity: true)
        identifiers.removeAll(keepingCapacity: true)
        relations.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
        creators.removeAll(keepingCapacity: true)
        isShownBy = nil
        object = nil
        isShownAt = nil
        webResources.removeAll(keepingCapacity: true)
        agents.removeAll(keepingCapacity: true)
    }

    /// The service of the web resource described as `url` in this record.
    package func service(of url: String) -> String? {
        webResources.first { $0.about == url }?.service
    }

    /// The labels of the agent described as `uri` in this record.
    package func agentLabels(_ uri: String) -> [LabelledText]? {
        agents.first { $0.about == uri }?.labels
    }
}

/// An element's text and its `xml:lang`.
package struct LabelledText: Sendable, Equatable {
    package var text: String
    package var language: String?

    package init(_ text: String, language: String? = nil) {
        self.text = text
        self.language = language
    }
}

extension [LabelledText] {
    /// The text in the first language of `languages` that has one, then an untagged one, then any: how a
    /// multilingual label is chosen.
    package func text(preferring languages: [String]) -> String? {
        let labelled = filter { !$0.text.isEmpty }
        for language in languages {
            if let match = labelled.first(where: { $0.language?.lowercased() == language }) { return match.text }
        }
        return labelled.first { $0.language == nil }?.text ?? labelled.first?.text
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

/// The attributes a record's elements carry that Vitrine reads.
struct RecordAttributes {
    var about: String?
    var resource: String?
    var language: String?
    var status: String?
}

/// Builds `OAIRecordFields` from one record's element events, keeping only a stack of the open elements.
struct RecordFieldCollector {
    private struct OpenElement {
        var element: RecordElement
        var attributes: RecordAttributes
        var textStart: Int
        /// The `rdf:about` of the first child that has one (EDM's nested shape).
        var firstChildAbout: String?
        /// The agent this element opened, or the agent nested in this `dc:creator`.
        var agent: Int?
        /// `svcs:has_service` inside this `edm:WebResource`.
        var service: String?
        /// Whether this is the record's first ProvidedCHO or Aggregation (only those are read).
        var isFirst = false
    }

    private(set) var fields = OAIRecordFields()
    private(set) var identifier = ""
    private(set) var datestamp: String?
    private(set) var isDeleted = false
    private var open: [OpenElement] = []
    /// The open elements' kinds, kept beside `open` so that looking at the innermost copies nothing.
    private var kinds: [RecordElement] = []
    private var hasAggregation = false

    /// Empties the collector for the next record, keeping its storage.
    mutating func reset() {
        fields.reset()
        identifier = ""
        datestamp = nil
        isDeleted = false
        open.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        hasAggregation = false
    }

    /// Whether an element with this name should be opened here, or skipped with everything inside it.
    func accepts(_ element: RecordElement) -> Bool {
        guard let parent = kinds.last else { return element == .record }
        if parent == .other { return false }
        return element != .other || parent == .metadata
    }

    /// Whether text arriving now belongs to an element whose text is read.
    var wantsText: Bool { kinds.last?.hasText ?? false }

    /// Where the innermost open element's text starts in the reader's buffer, and whether it is read.
    var innermostText: (start: Int, isRead: Bool)? {
        guard let kind = kinds.last else { return nil }
        return (open[open.count - 1].textStart, kind.hasText)
    }

    var isEmpty: Bool { open.isEmpty }

    mutating func start(_ element: RecordElement, name: String, attributes: RecordAttributes, textStart: Int) {
        var opened = OpenElement(element: element, attributes: attributes, textStart: textStart)
        if let parent = kinds.last {
            if parent == .metadata, fields.format == nil {
                switch element {
                case .rdf, .providedCHO: fields.format = .edm
                case .dublinCore: fields.format = .dublinCore
                default: fields.format = .other(name)
                }
            }
            if let about = attributes.about, open[open.count - 1].firstChildAbout == nil {
                open[open.count - 1].firstChildAbout = about
            }
        }
        switch element {
        case .header:
            isDeleted = attributes.status == "deleted"
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
            if kinds.last == .creator, open[open.count - 1].agent == nil {
                open[open.count - 1].agent = opened.agent
            }
        default:
            break
        }
        open.append(opened)
        kinds.append(element)
    }

    /// Closes the innermost element; `text` is its own text, trimmed (empty for elements whose text is not read).
    mutating func end(text: String) {
        guard let closed = open.popLast(), kinds.popLast() != nil, let parent = kinds.last else { return }
        let parentIsFirst = open[open.count - 1].isFirst
        let labelled = LabelledText(text, language: closed.attributes.language)
        let inCHO = parent == .providedCHO && parentIsFirst
        let inDC = parent == .dublinCore
        switch closed.element {
        case .identifier where parent == .header:
            identifier = text
        case .datestamp where parent == .header:
            datestamp = text.isEmpty ? nil : text
        case .identifier where inCHO || inDC:
            if !text.isEmpty { fields.identifiers.append(text) }
        case .title where inCHO || inDC:
            fields.titles.append(labelled)
        case .alternative where inCHO:
            fields.alternatives.append(labelled)
        case .creator where inCHO || inDC:
            fields.creators.append(
                OAIRecordFields.Creator(
                    resource: closed.attributes.resource, nestedAgent: closed.agent, name: labelled))
        case .created where inCHO:
            fields.created.append(labelled)
        case .date where inCHO || inDC:
            fields.dates.append(labelled)
        case .relation where inDC:
            if !text.isEmpty { fields.relations.append(text) }
        case .format where inDC:
            if !text.isEmpty { fields.formats.append(text) }
        case .prefLabel where parent == .agent:
            if let agent = open[open.count - 1].agent { fields.agents[agent].labels.append(labelled) }
        case .hasService where parent == .webResource:
            open[open.count - 1].service = closed.attributes.resource.flatMap { $0.isEmpty ? nil : $0 } ?? text
        case .webResource:
            if let about = closed.attributes.about {
                fields.webResources.append(OAIRecordFields.WebResource(about: about, service: closed.service))
            }
        case .isShownBy, .object, .isShownAt:
            guard parent == .aggregation, parentIsFirst else { break }
            let reference = OAIRecordFields.Reference(
                resource: closed.attributes.resource, nestedAbout: closed.firstChildAbout, text: text)
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
