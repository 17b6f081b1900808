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
        /// The concept or place this element opened, or the one nested in this field.
        var concept: Int?
        /// `svcs:has_service` inside this `edm:WebResource`.
        var service: Span?
        /// Whether this is the record's first ProvidedCHO or Aggregation (only those are read).
        var isFirst = false
        /// A metadata wrapper other than oai_dc and EDM: only its Dublin Core children are read.
        var isForeignWrapper = false
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

    /// Whether the element about to open sits directly in a wrapper other than oai_dc and EDM, where only
    /// elements in Dublin Core's namespaces are read (a MODS `<title>` is not a `dc:title`).
    var inForeignWrapper: Bool { open.last?.isForeignWrapper ?? false }

    /// Whether text arriving now belongs to an element whose text is read.
    var wantsText: Bool { open.last?.element.hasText ?? false }

    /// Where the innermost open element's text starts in the reader's buffer, and whether it is read.
    var innermostText: (start: Int, isRead: Bool)? {
        guard let innermost = open.last else { return nil }
        return (innermost.textStart, innermost.element.hasText)
    }

    var isEmpty: Bool { open.isEmpty }

    /// How many elements are open.
    var depth: Int { open.count }

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
                default:
                    // Another wrapper (NSDL's `nsdl_dc`, a repository's own): its Dublin Core elements, if it
                    // has any, are read as `oai_dc`'s are.
                    fields.format = .other(name.isEmpty ? "\(element)" : name)
                    opened.element = .dublinCore
                    opened.isForeignWrapper = true
                }
            }
            if let about = attributes.about, open[parent].firstChildAbout == nil {
                open[parent].firstChildAbout = about
            }
        }
        switch element {
        case .header:
            // The protocol writes `deleted`; some servers shout it, or pad it.
            fields.isDeleted = fields.string(attributes.status)?.lowercased().filter { !$0.isWhitespace } == "deleted"
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
        case .concept, .place, .rdfDescription:
            fields.concepts.append(OAIRecordFields.Concept(about: attributes.about))
            opened.concept = fields.concepts.count - 1
            if let parent, open[parent].element.refersToConcept, open[parent].concept == nil {
                open[parent].concept = opened.concept
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
        func term() -> OAIRecordFields.Term {
            OAIRecordFields.Term(resource: closed.attributes.resource, nestedConcept: closed.concept, text: labelled())
        }
        switch closed.element {
        case .identifier where parentElement == .header:
            fields.identifier = fields.keep(text)
        case .datestamp where parentElement == .header:
            fields.datestamp = text.isEmpty ? nil : fields.keep(text)
        case .setSpec where parentElement == .header:
            if !text.isEmpty { fields.setSpecs.append(fields.keep(text)) }
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
            fields.created.append(term())
        case .date where inCHO || inDC:
            fields.dates.append(term())
        case .relation where inDC:
            if !text.isEmpty { fields.relations.append(fields.keep(text)) }
        case .format where inDC:
            if !text.isEmpty { fields.formats.append(fields.keep(text)) }
        case .description where inCHO || inDC:
            fields.descriptions.append(labelled())
        case .type where inCHO || inDC:
            fields.types.append(term())
        case .subject where inCHO || inDC:
            fields.subjects.append(term())
        case .medium where inCHO || inDC:
            fields.media.append(term())
        case .extent where inCHO || inDC:
            fields.extents.append(labelled())
        case .spatial where inCHO || inDC, .coverage where inCHO || inDC:
            fields.places.append(term())
        case .rights where inCHO || inDC:
            fields.rights.append(term())
        case .rights where parentElement == .aggregation && parentIsFirst:
            if fields.aggregationRights == nil {
                let resource = closed.attributes.resource.flatMap { $0.isEmpty ? nil : $0 }
                fields.aggregationRights = resource ?? (text.isEmpty ? nil : fields.keep(text))
            }
        case .prefLabel where parentElement == .concept || parentElement == .place || parentElement == .rdfDescription:
            if let concept = open[parent].concept {
                fields.conceptLabels.append(OAIRecordFields.ConceptLabel(concept: concept, label: labelled()))
            }
        case .dateOfBirth where parentElement == .agent, .dateOfDeath where parentElement == .agent,
            .placeOfBirth where parentElement == .agent, .professionOrOccupation where parentElement == .agent:
            if let agent = open[parent].agent {
                let kind: OAIRecordFields.AgentFact.Kind =
                    switch closed.element {
                    case .dateOfBirth: .birth
                    case .dateOfDeath: .death
                    case .placeOfBirth: .birthPlace
                    default: .profession
                    }
                fields.agentFacts.append(OAIRecordFields.AgentFact(agent: agent, kind: kind, term: term()))
            }
        case .provenance where inCHO || inDC:
            fields.provenances.append(labelled())
        case .isPartOf where inCHO || inDC:
            fields.partOf.append(term())
        case .language where inCHO || inDC:
            fields.languageFields.append(labelled())
        case .publisher where inCHO || inDC:
            fields.publishers.append(labelled())
        case .contributor where inCHO || inDC:
            fields.contributors.append(labelled())
        case .source where inCHO || inDC:
            fields.sources.append(labelled())
        case .latitude where parentElement == .place, .longitude where parentElement == .place:
            if let concept = open[parent].concept, !text.isEmpty {
                fields.coordinates.append(
                    OAIRecordFields.Coordinate(
                        concept: concept, isLatitude: closed.element == .latitude, text: fields.keep(text)))
            }
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
