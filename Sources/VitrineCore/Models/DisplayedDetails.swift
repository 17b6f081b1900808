/// An object's details as the Displays show them: display strings (empty: absent), lists of them, and numbers, made
/// by the Presenter from `ObjectDetails`. The detail page shows `facts`, the description's paragraphs and the
/// rights; the CSV and the JSON Lines export write every field.
package struct DisplayedDetails: Sendable, Equatable {
    /// What tells the record apart from every other in the export (`ArtObject.recordKey`).
    package var recordID: String = ""
    /// When the source last changed the record, as it writes it.
    package var datestamp: String = ""
    package var yearBegin: Int?
    package var yearEnd: Int?
    package var objectType: String = ""
    package var materials: [String] = []
    /// May hold line breaks, as the museum sets its measurements out.
    package var dimensions: String = ""
    /// Plain text; paragraphs are separated by an empty line.
    package var description: String = ""
    package var creditLine: String = ""
    package var place: String = ""
    package var subjects: [String] = []
    package var makers: [DisplayedMaker] = []
    /// The rights' address, label and credit; all empty when the source says nothing about them.
    package var rightsURL: String = ""
    package var rightsLabel: String = ""
    /// Whether the image is open for reuse; `nil` when the source gives no rights.
    package var isOpenAccess: Bool?
    package var attribution: String = ""
    /// The credit in pieces, each linked where the source asks (`url` empty otherwise); joined, they are
    /// `attribution`.
    package var attributionParts: [CreditPart] = []
    /// The museum's alt text; empty when it wrote none.
    package var altText: String = ""
    /// What else the source says (`ObjectDetails.otherFacts`), each label once.
    package var otherFacts: [Fact] = []

    package init() {}

    /// One maker, as shown.
    package struct DisplayedMaker: Sendable, Equatable {
        package var name: String
        package var role: String
        package var lifeDates: String
        package var sortName: String
    }

    /// A piece of a credit, and where it links (empty: nowhere).
    package struct CreditPart: Sendable, Equatable {
        package var text: String
        package var url: String
    }

    /// A labelled value of the detail page's list.
    package typealias Fact = ObjectDetails.Fact

    /// The object's sort name for an index (its first maker's), empty when the source gives none.
    package var makerSortName: String { makers.first?.sortName ?? "" }

    /// The description's paragraphs: split where two line feeds meet, byte by byte (a page's fingerprint asks for
    /// them on every night).
    package var paragraphs: [String] {
        guard !description.isEmpty else { return [] }
        let utf8 = description.utf8
        guard utf8.contains(0x0A) else { return [description] }
        var paragraphs: [String] = []
        var start = utf8.startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let next = utf8.index(after: index)
            if utf8[index] == 0x0A, next != utf8.endIndex, utf8[next] == 0x0A {
                paragraphs.append(String(description[start..<index]))
                start = utf8.index(after: next)
                index = start
            } else {
                index = next
            }
        }
        paragraphs.append(String(description[start...]))
        return paragraphs
    }

    /// What the detail page lists, in the order a museum's page gives it; nothing for what the object lacks. The
    /// first maker's name, the date and the number are shown by the page itself.
    package var facts: [Fact] {
        var facts: [Fact] = []
        facts.reserveCapacity(7 + otherFacts.count)
        func add(_ label: String, _ value: String) {
            if !value.isEmpty { facts.append(Fact(label: label, value: value)) }
        }
        if makers.count > 1 || makers.contains(where: { !$0.role.isEmpty || !$0.lifeDates.isEmpty }) {
            add(makers.count > 1 ? "Makers" : "About the maker", makersLine)
        }
        add("Object type", objectType)
        add("Materials", materials.joined(separator: ", "))
        add("Dimensions", dimensions)
        add("Place", place)
        add("Subjects", subjects.joined(separator: ", "))
        add("Credit line", creditLine)
        facts += otherFacts
        return facts
    }

    /// Every maker, as the page lists them and the CSV's `makers` column holds them:
    /// `Rembrandt van Rijn (painter, 1606–1669); Jan Six`.
    package var makersLine: String {
        makers.map { maker in
            let about =
                maker.role.isEmpty || maker.lifeDates.isEmpty
                ? maker.role + maker.lifeDates : maker.role + ", " + maker.lifeDates
            return about.isEmpty ? maker.name : "\(maker.name) (\(about))"
        }.joined(separator: "; ")
    }

    /// The other facts as the CSV's `other_facts` column holds them: `Department: Paintings; Period: Edo`.
    package var otherFactsLine: String {
        otherFacts.map { "\($0.label): \($0.value)" }.joined(separator: "; ")
    }
}
