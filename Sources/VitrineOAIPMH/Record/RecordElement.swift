/// The elements inside a record that the collector acts on, by local name; everything else is skipped with
/// its subtree (except the format element directly inside `<metadata>`, reported by name).
enum RecordElement: UInt8 {
    case record, header, identifier, datestamp, setSpec, metadata
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
        case "setSpec": self = .setSpec
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
            .setSpec, .relation, .format:
            false
        default:
            true
        }
    }

    /// Whether the element's own text is read (containers' whitespace is never kept).
    var hasText: Bool {
        switch self {
        case .identifier, .datestamp, .setSpec, .hasService, .isShownBy, .isShownAt, .object, .title, .alternative,
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
