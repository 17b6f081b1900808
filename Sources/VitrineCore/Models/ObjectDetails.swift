/// What a source tells about an object beyond its number, title, maker, date and picture: shown on its detail page,
/// in the CSV and in the JSON Lines export. Each field is absent (`nil`, empty) where the source gives nothing, and
/// then shown nowhere: never as "null" or an empty label.
package struct ObjectDetails: Sendable, Hashable {
    /// A list field (makers, materials, subjects, a fact's values) keeps at most this many values, each once: a
    /// pathological record lists thousands, and keeping each once costs a comparison with every value kept.
    package static let listLimit = 64

    /// Prose about the object, as plain text (markup from the source reduced to text by the adapter).
    package var description: String?
    /// What kind of object it is (`painting`, `print`, `photograph`).
    package var objectType: String?
    /// Materials and technique, each as the source names it (`canvas`, `oil paint`).
    package var materials: [String]
    /// Its measurements, as the museum writes them.
    package var dimensions: String?
    /// How the museum came to own it.
    package var creditLine: String?
    /// Where it was made or what it shows (`Amsterdam`).
    package var place: String?
    /// What it depicts or is about.
    package var subjects: [String]
    /// The first and last year it may date from: the source's numbers, else read from its date text
    /// (`YearRange`). Negative for years BCE.
    package var yearBegin: Int?
    package var yearEnd: Int?
    /// Every maker the source names, the first the object's own `maker`.
    package var makers: [Maker]
    /// Whether and how its image may be reused; `nil` where the source says nothing.
    package var rights: Rights?
    /// The museum's own description of the image for those who cannot see it.
    package var altText: String?
    /// What else the source says, labelled as a museum's page labels it (`Department`, `Provenance`), in the
    /// source's order, one value a label.
    package var otherFacts: [Fact] = []

    package init(
        description: String? = nil, objectType: String? = nil, materials: [String] = [], dimensions: String? = nil,
        creditLine: String? = nil, place: String? = nil, subjects: [String] = [], yearBegin: Int? = nil,
        yearEnd: Int? = nil, makers: [Maker] = [], rights: Rights? = nil, altText: String? = nil,
        otherFacts: [Fact] = []
    ) {
        self.description = description
        self.objectType = objectType
        self.materials = materials
        self.dimensions = dimensions
        self.creditLine = creditLine
        self.place = place
        self.subjects = subjects
        self.yearBegin = yearBegin
        self.yearEnd = yearEnd
        self.makers = makers
        self.rights = rights
        self.altText = altText
        self.otherFacts = otherFacts
    }

    /// Adds `value` under `label` (list items joined by `; `); nothing when there is no value.
    package mutating func addFact(_ label: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        otherFacts.append(Fact(label: label, value: value))
    }

    package mutating func addFact(_ label: String, _ values: [String]) {
        addFact(label, values.isEmpty ? nil : values.joined(separator: "; "))
    }

    /// A labelled value: one of `otherFacts`, or a line of the detail page's list (`DisplayedDetails.Fact`).
    package struct Fact: Sendable, Hashable {
        package var label: String
        package var value: String

        package init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    /// Whether the source gave none of these.
    package var isEmpty: Bool { self == ObjectDetails() }

    /// One maker of an object.
    package struct Maker: Sendable, Hashable {
        /// The name as the museum displays it (`Vincent van Gogh`).
        package var name: String
        /// What they did (`artist`, `printmaker`, `publisher`).
        package var role: String?
        /// Their life dates or biography as the source writes them (`1853–1890`, `Dutch, Zundert 1853–1890 Auvers`).
        package var lifeDates: String?
        /// The name as an index files it (`Gogh, Vincent van`), where the source gives one.
        package var sortName: String?

        package init(name: String, role: String? = nil, lifeDates: String? = nil, sortName: String? = nil) {
            self.name = name
            self.role = role
            self.lifeDates = lifeDates
            self.sortName = sortName
        }
    }
}

/// Whether and how an object's image may be reused: one value every source can fill.
package struct Rights: Sendable, Hashable {
    /// The license or rights statement's address (Creative Commons, rightsstatements.org), where there is one.
    package var url: String?
    /// A short label (`Public Domain Mark`, `CC BY 4.0`, `In Copyright`), or the source's own words.
    package var label: String
    /// Whether the image is open for reuse: public domain, CC0, CC BY, CC BY-SA, or a license that says so.
    package var isOpen: Bool
    /// The credit the license asks for (`Photo by Jane Doe on Unsplash`), where it asks for one.
    package var attribution: String?
    /// Words of `attribution` the license asks to link, in the order they occur (the photographer's name to
    /// their profile, `Unsplash` to the site).
    package var links: [Link]

    package init(url: String?, label: String, isOpen: Bool, attribution: String? = nil, links: [Link] = []) {
        self.url = url
        self.label = label
        self.isOpen = isOpen
        self.attribution = attribution
        self.links = links
    }

    /// A link on words of a credit.
    package struct Link: Sendable, Hashable {
        package var text: String
        package var url: String

        package init(text: String, url: String) {
            self.text = text
            self.url = url
        }
    }
}
