/// The elements inside a record that the collector acts on, by local name; everything else is skipped with
/// its subtree (except the format element directly inside `<metadata>`, reported by name).
enum RecordElement: UInt8 {
    case record, header, identifier, datestamp, setSpec, metadata
    case rdf, dublinCore, providedCHO, aggregation, aggregatedCHO, webResource, agent, hasService
    case isShownBy, isShownAt, object
    case title, alternative, creator, created, date, prefLabel, relation, format
    // The details: Dublin Core and EDM fields, the concepts and places they point at, an agent's facts.
    case description, type, subject, medium, extent, spatial, coverage, rights
    case concept, place, rdfDescription, dateOfBirth, dateOfDeath, professionOrOccupation
    case provenance, isPartOf, language, publisher, contributor, source, placeOfBirth, latitude, longitude
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
        case "description": self = .description
        case "type": self = .type
        case "subject": self = .subject
        case "medium": self = .medium
        case "extent": self = .extent
        case "spatial": self = .spatial
        case "coverage": self = .coverage
        case "rights": self = .rights
        // A time span is read as a concept is: its address and its labels.
        case "Concept", "TimeSpan": self = .concept
        case "Place": self = .place
        case "Description": self = .rdfDescription
        case "dateOfBirth": self = .dateOfBirth
        case "dateOfDeath": self = .dateOfDeath
        case "professionOrOccupation": self = .professionOrOccupation
        case "provenance": self = .provenance
        case "isPartOf": self = .isPartOf
        case "language": self = .language
        case "publisher": self = .publisher
        case "contributor": self = .contributor
        case "source": self = .source
        case "placeOfBirth": self = .placeOfBirth
        case "lat": self = .latitude
        case "long": self = .longitude
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

    /// Whether only the element in Dublin Core's namespaces is read (`edm:type` is not a `dc:type`).
    var isDublinCoreOnly: Bool { self == .type }

    /// Whether the element points at a concept, place or time span, which may sit nested inside it (EDM's nested
    /// shape).
    var refersToConcept: Bool {
        switch self {
        case .created, .date, .type, .subject, .medium, .spatial, .coverage, .rights, .professionOrOccupation,
            .isPartOf, .placeOfBirth:
            true
        default: false
        }
    }

    /// Whether the element's own text is read (containers' whitespace is never kept).
    var hasText: Bool {
        switch self {
        case .identifier, .datestamp, .setSpec, .hasService, .isShownBy, .isShownAt, .object, .title, .alternative,
            .creator, .created, .date, .prefLabel, .relation, .format, .description, .type, .subject, .medium,
            .extent, .spatial, .coverage, .rights, .dateOfBirth, .dateOfDeath, .professionOrOccupation, .provenance,
            .isPartOf, .language, .publisher, .contributor, .source, .placeOfBirth, .latitude, .longitude:
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
