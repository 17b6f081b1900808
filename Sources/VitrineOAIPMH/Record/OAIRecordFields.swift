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
    /// The header's `<setSpec>`s.
    package var setSpecs: [Span] = []
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
    /// `dcterms:created` and `dc:date`: text, or a time span (`edm:TimeSpan`) the record describes.
    package var created: [Term] = []
    package var dates: [Term] = []
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
    // The details (`OAIRecordFields+Details.swift`), of the ProvidedCHO or the Dublin Core record.
    package var descriptions: [Labelled] = []
    package var types: [Term] = []
    package var subjects: [Term] = []
    /// `dcterms:medium`: materials and technique.
    package var media: [Term] = []
    /// `dcterms:extent`: dimensions.
    package var extents: [Labelled] = []
    /// `dcterms:spatial` and `dc:coverage`.
    package var places: [Term] = []
    /// `dc:rights`; `edm:rights` of the first aggregation is `aggregationRights`.
    package var rights: [Term] = []
    package var aggregationRights: Span?
    /// `skos:Concept`, `edm:Place` and `rdf:Description` nodes, wherever they sit, and their labels.
    package var concepts: [Concept] = []
    package var conceptLabels: [ConceptLabel] = []
    package var agentFacts: [AgentFact] = []
    /// `dcterms:provenance`, `dcterms:isPartOf`, `dc:language`, `dc:publisher`, `dc:contributor`, `dc:source`: the
    /// other facts.
    package var provenances: [Labelled] = []
    package var partOf: [Term] = []
    package var languageFields: [Labelled] = []
    package var publishers: [Labelled] = []
    package var contributors: [Labelled] = []
    package var sources: [Labelled] = []
    /// `wgs84_pos:lat` and `long` of the places (`edm:Place`).
    package var coordinates: [Coordinate] = []

    package init() {}

    /// Empties every field, keeping the storage for the next record.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        identifier = nil
        datestamp = nil
        isDeleted = false
        setSpecs.removeAll(keepingCapacity: true)
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
        descriptions.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
        subjects.removeAll(keepingCapacity: true)
        media.removeAll(keepingCapacity: true)
        extents.removeAll(keepingCapacity: true)
        places.removeAll(keepingCapacity: true)
        rights.removeAll(keepingCapacity: true)
        aggregationRights = nil
        concepts.removeAll(keepingCapacity: true)
        conceptLabels.removeAll(keepingCapacity: true)
        agentFacts.removeAll(keepingCapacity: true)
        provenances.removeAll(keepingCapacity: true)
        partOf.removeAll(keepingCapacity: true)
        languageFields.removeAll(keepingCapacity: true)
        publishers.removeAll(keepingCapacity: true)
        contributors.removeAll(keepingCapacity: true)
        sources.removeAll(keepingCapacity: true)
        coordinates.removeAll(keepingCapacity: true)
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
        XMLEntities.appendUnescaped(value, to: &bytes)
        return span(from: start)
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

    /// Whether two spans hold the same bytes in any ASCII case (language tags).
    func sameIgnoringCase(_ lhs: Span, _ rhs: Span) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            all[Int(lhs.start)..<Int(lhs.start + lhs.count)].elementsEqual(
                all[Int(rhs.start)..<Int(rhs.start + rhs.count)]
            ) { $0 | 0x20 == $1 | 0x20 }
        }
    }

    /// Whether a span holds `lowercased` in any ASCII case (language tags).
    func matches(_ span: Span, lowercased: [UInt8]) -> Bool {
        // A regional tag is its language's too: `en-GB` is English.
        let length = lowercased.count
        guard span.count == length || (span.count > length && bytes[Int(span.start) + length] == UInt8(ascii: "-"))
        else { return false }
        return bytes.withUnsafeBufferPointer { all in
            all[Int(span.start)..<Int(span.start) + length].elementsEqual(lowercased) { byte, lower in
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

    /// The string of a span's bytes, for keys.
    func key(_ span: Span) -> ArraySlice<UInt8> {
        bytes[Int(span.start)..<Int(span.start + span.count)]
    }

    /// Agents by `rdf:about` and labels by agent, for a record with many creators: looking each creator's agent
    /// up by a scan costs creators × agents, ruinous for a record of thousands; built once, this costs their sum.
    struct AgentIndex {
        private var agentByAbout: [ArraySlice<UInt8>: Int] = [:]
        private var labelsByAgent: [Int: [Labelled]] = [:]

        init(_ fields: OAIRecordFields) {
            for (index, agent) in fields.agents.enumerated() {
                guard let about = agent.about else { continue }
                let key = fields.key(about)
                if agentByAbout[key] == nil { agentByAbout[key] = index }
            }
            for label in fields.agentLabels { labelsByAgent[label.agent, default: []].append(label.label) }
        }

        /// The index of the agent described as `uri`, as `OAIRecordFields.agent(describing:)` finds it.
        func agent(describing uri: Span, in fields: OAIRecordFields) -> Int? {
            agentByAbout[fields.key(uri)]
        }

        /// The preferred label of the agent at `index`, as `OAIRecordFields.preferredLabel` chooses it.
        func preferredLabel(ofAgent index: Int, in fields: OAIRecordFields, languages: [[UInt8]]) -> Span? {
            fields.preferred(labelsByAgent[index] ?? [], languages: languages)
        }
    }
}
