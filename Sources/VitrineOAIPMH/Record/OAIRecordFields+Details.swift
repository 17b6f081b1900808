extension OAIRecordFields {
    /// A field that names a concept, a place or an occupation: `rdf:resource` pointing at a node in the record,
    /// the node nested inside it (EDM's nested shape), or plain text (Dublin Core).
    package struct Term: Sendable, Equatable {
        package var resource: Span?
        /// Index in `concepts` of the node nested inside this field.
        package var nestedConcept: Int?
        package var text: Labelled
    }

    /// A `skos:Concept`, `edm:Place` or `rdf:Description`, wherever it sits in the record.
    package struct Concept: Sendable, Equatable {
        package var about: Span?
    }

    /// A `skos:prefLabel` of the concept at index `concept` in `concepts`. (`skos:altLabel`s are not read: the
    /// Rijksmuseum puts Iconclass codes such as `45D12` there, which are not for display.)
    package struct ConceptLabel: Sendable, Equatable {
        package var concept: Int
        package var label: Labelled
    }

    /// What an `edm:Agent` says of its maker: `rdaGr2:dateOfBirth`, `dateOfDeath`, `placeOfBirth`,
    /// `professionOrOccupation`.
    package struct AgentFact: Sendable, Equatable {
        package enum Kind: UInt8, Sendable {
            case birth, death, birthPlace, profession
        }

        package var agent: Int
        package var kind: Kind
        package var term: Term
    }

    /// A latitude or longitude of the place at index `concept` in `concepts`.
    package struct Coordinate: Sendable, Equatable {
        package var concept: Int
        package var isLatitude: Bool
        package var text: Span
    }

    /// Every value of a field in the language `preferred` would choose, and the untagged ones: a record may give
    /// an abstract and a note as two descriptions, or a height and a weight as two extents.
    func values(_ labels: [Labelled], languages: [[UInt8]]) -> [String] {
        let isChosen = isInChosenLanguage(among: labels, languages: languages)
        return labels.lazy.filter { !$0.text.isEmpty && isChosen($0) }.prefix(16).map { string($0.text) }
    }

    /// A predicate that keeps, of several literal values of one field, those in the language `preferred` would
    /// choose and the untagged ones: `<dc:subject xml:lang="en">` and `xml:lang="nl"` are one subject twice.
    func isInChosenLanguage(among labels: some Collection<Labelled>, languages: [[UInt8]]) -> (Labelled) -> Bool {
        let tagged = labels.lazy.filter { !$0.text.isEmpty }.compactMap(\.language)
        guard let first = tagged.first else { return { _ in true } }
        // One tag of the first language there in any case or region (`en`, `EN`, `en-GB`), the bare code first:
        // `en-GB` "Colour" and `en-US` "Color" are one subject twice.
        for code in languages {
            let bare = tagged.first { $0.count == code.count && matches($0, lowercased: code) }
            if let chosen = bare ?? tagged.first(where: { matches($0, lowercased: code) }) {
                return { label in label.language.map { sameIgnoringCase($0, chosen) } ?? true }
            }
        }
        let hasUntagged = labels.contains { $0.language == nil && !$0.text.isEmpty }
        if hasUntagged { return { $0.language == nil } }
        return { label in label.language.map { same($0, first) } ?? true }
    }
}

/// Finds the nodes a record's fields point at, by `rdf:about`, and their labels in the preferred language: by a
/// scan for the few of an ordinary record, through dictionaries built once for a record with many (a scan would
/// cost fields × nodes).
struct ConceptLookup {
    typealias Span = OAIRecordFields.Span
    let fields: OAIRecordFields
    let languages: [[UInt8]]
    private var byAbout: [ArraySlice<UInt8>: Int] = [:]
    private var labelsByConcept: [Int: [OAIRecordFields.Labelled]] = [:]
    private let isIndexed: Bool

    init(_ fields: OAIRecordFields, languages: [[UInt8]]) {
        self.fields = fields
        self.languages = languages
        isIndexed = fields.concepts.count > 16
        guard isIndexed else { return }
        for (index, concept) in fields.concepts.enumerated() {
            guard let about = concept.about else { continue }
            let key = fields.key(about)
            if byAbout[key] == nil { byAbout[key] = index }
        }
        for label in fields.conceptLabels { labelsByConcept[label.concept, default: []].append(label.label) }
    }

    /// The index of the node described as `uri`.
    func concept(describing uri: Span) -> Int? {
        if isIndexed { return byAbout[fields.key(uri)] }
        return fields.concepts.firstIndex { $0.about.map { fields.same($0, uri) } ?? false }
    }

    /// The preferred label of the node at `index`.
    func label(ofConcept index: Int) -> Span? {
        if isIndexed { return fields.preferred(labelsByConcept[index] ?? [], languages: languages) }
        return fields.preferred(
            fields.conceptLabels.lazy.filter { $0.concept == index }.map(\.label), languages: languages)
    }

    /// What a term names: its nested node's label, the label of the node it points at, or its own text. A
    /// reference to a node the record does not describe names nothing (its address is not a label).
    func label(of term: OAIRecordFields.Term) -> Span? {
        if let nested = term.nestedConcept, let label = label(ofConcept: nested) { return label }
        if let resource = term.resource, !resource.isEmpty {
            return concept(describing: resource).flatMap { label(ofConcept: $0) }
        }
        return term.text.text.isEmpty ? nil : term.text.text
    }

    /// The labels of `terms`, at most `limit`: literals in the chosen language only (see `isInChosenLanguage`).
    func labels(_ terms: [OAIRecordFields.Term], limit: Int = 64) -> [String] {
        let literals = terms.lazy.filter { $0.resource == nil && $0.nestedConcept == nil }.map(\.text)
        let isChosen = fields.isInChosenLanguage(among: literals, languages: languages)
        var labels: [String] = []
        for term in terms where labels.count < limit {
            if term.resource == nil, term.nestedConcept == nil, !isChosen(term.text) { continue }
            if let label = label(of: term) { labels.append(fields.string(label)) }
        }
        return labels
    }
}
