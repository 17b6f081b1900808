import VitrineCore
import VitrineSources

extension EDMRecordMapper {
    /// What the ProvidedCHO says beyond title, maker and date, its references resolved against the concepts,
    /// places and agents in the same record, labels in the preferred language; rights from the aggregation's
    /// `edm:rights`, else `dc:rights`.
    func details(
        _ fields: OAIRecordFields, creators: [(name: OAIRecordFields.Span, agent: Int?)], date: String?
    ) -> ObjectDetails {
        let lookup = ConceptLookup(fields, languages: languages)
        let (types, places) = (
            DetailText.lines(lookup.labels(fields.types)), DetailText.lines(lookup.labels(fields.places))
        )
        var details = ObjectDetails(
            description: OAIDetails.block(
                fields.values(fields.descriptions, languages: languages), separator: "\n\n", html: true),
            objectType: types.first,
            materials: DetailText.lines(lookup.labels(fields.media)),
            dimensions: OAIDetails.block(fields.values(fields.extents, languages: languages), separator: "\n"),
            place: places.first,
            subjects: DetailText.lines(lookup.labels(fields.subjects).filter { !OAIDetails.isIconclass($0) }),
            rights: OAIDetails.rights(fields.string(fields.aggregationRights))
                ?? OAIDetails.rights(fields.rights, in: fields, lookup: lookup)
        )
        (details.yearBegin, details.yearEnd) = YearRange.parse(date).map { ($0.begin, $0.end) } ?? (nil, nil)
        for creator in creators {
            guard let name = DetailText.line(fields.string(creator.name)) else { continue }
            var maker = ObjectDetails.Maker(name: name)
            if let agent = creator.agent {
                let facts = fields.agentFacts.filter { $0.agent == agent }
                func fact(_ kind: OAIRecordFields.AgentFact.Kind) -> String? {
                    DetailText.lines(lookup.labels(facts.filter { $0.kind == kind }.map(\.term), limit: 1)).first
                }
                maker.lifeDates = DetailText.lifeDates(
                    born: fact(.birth), died: fact(.death), place: fact(.birthPlace))
                maker.role = fact(.profession)
                maker.sortName = fields.agentLabels.lazy.filter { $0.agent == agent }
                    .compactMap { DetailText.line(fields.string($0.label.text)) }.first(where: OAIDetails.isInverted)
            } else if OAIDetails.isInverted(name) {
                maker.sortName = name
            }
            if !details.makers.contains(maker) { details.makers.append(maker) }
        }
        lookup.addOtherFacts(to: &details, types: types, places: places, placesLabel: "Other places")
        return details
    }
}

extension DublinCoreRecordMapper {
    /// What a Dublin Core record says beyond title, maker and date: `dc:format` is a material unless it is a MIME
    /// type, a link or a measurement (then the dimensions); `dc:coverage` (or `dcterms:spatial`) is the place; an
    /// inverted creator is a sort name.
    func details(_ dc: OAIRecordFields, date: String?) -> ObjectDetails {
        let lookup = ConceptLookup(dc, languages: languages)
        let (types, places) = (DetailText.lines(lookup.labels(dc.types)), DetailText.lines(lookup.labels(dc.places)))
        let formats = dc.formats.map { dc.string($0) }.filter { !OAIDetails.isMIMEType($0) && !$0.contains("://") }
        let measured = formats.filter(OAIDetails.isMeasurement)
        var details = ObjectDetails(
            description: OAIDetails.block(
                dc.values(dc.descriptions, languages: languages), separator: "\n\n", html: true),
            objectType: types.first,
            materials: DetailText.lines(lookup.labels(dc.media) + formats.filter { !OAIDetails.isMeasurement($0) }),
            dimensions: OAIDetails.block(
                dc.values(dc.extents, languages: languages) + measured, separator: "\n"),
            place: places.first,
            subjects: DetailText.lines(lookup.labels(dc.subjects).filter { !OAIDetails.isIconclass($0) }),
            rights: OAIDetails.rights(dc.rights, in: dc, lookup: lookup)
        )
        (details.yearBegin, details.yearEnd) = YearRange.parse(date).map { ($0.begin, $0.end) } ?? (nil, nil)
        // The object's maker first (the creator `preferred` chose), then the others in the same language.
        let chosen = dc.preferred(dc.creators.lazy.map(\.name), languages: languages)
        let isChosenLanguage = dc.isInChosenLanguage(among: dc.creators.lazy.map(\.name), languages: languages)
        var names = chosen.map { [$0] } ?? []
        for creator in dc.creators where names.count < ObjectDetails.listLimit {
            let text = creator.name.text
            guard !text.isEmpty, isChosenLanguage(creator.name), chosen.map({ !dc.same($0, text) }) ?? true else {
                continue
            }
            names.append(text)
        }
        for span in names {
            let text = dc.string(span)
            guard let name = DetailText.line(Self.withoutRole(text)) else { continue }
            let role = name == DetailText.line(text) ? nil : DetailText.line(text.prefix { $0 != ":" }.description)
            let maker = ObjectDetails.Maker(name: name, role: role, sortName: OAIDetails.isInverted(name) ? name : nil)
            if !details.makers.contains(maker) { details.makers.append(maker) }
        }
        lookup.addOtherFacts(to: &details, types: types, places: places, placesLabel: "Coverage")
        details.addFact("Format", DetailText.lines(dc.formats.lazy.map { dc.string($0) }.filter(OAIDetails.isMIMEType)))
        // The prose beside the license the rights show ("No known restrictions").
        let statements = DetailText.lines(lookup.labels(dc.rights, limit: 8)).filter {
            !$0.hasPrefix("http://") && !$0.hasPrefix("https://") && $0 != details.rights?.label
        }
        details.addFact("Rights statement", statements)
        return details
    }
}

/// The rules of reading details from OAI-PMH text, by bytes: they run for every field of every record.
enum OAIDetails {
    /// Several values of one field (the first `ObjectDetails.listLimit`) as one text, each cleaned and kept once, in
    /// the record's order.
    /// With `html`, a value with markup in it (a description in CDATA, or escaped as `&lt;p&gt;`) is reduced to its
    /// text: never shown as tags.
    static func block(_ values: [String], separator: String, html: Bool = false) -> String? {
        var parts: [String] = []
        for value in values.prefix(ObjectDetails.listLimit) {
            let cleaned =
                html && (HTMLText.hasMarkup(value) || HTMLText.hasEscapedTag(value))
                ? HTMLText.plainText(value) : DetailText.block(value)
            if let part = cleaned, !parts.contains(part) { parts.append(part) }
        }
        return parts.count < 2 ? parts.first : DetailText.block(parts.joined(separator: separator))
    }

    /// The rights `dc:rights` states: a license it points at (`rdf:resource`), else its text that is a URI, else
    /// its first prose.
    static func rights(_ terms: [OAIRecordFields.Term], in fields: OAIRecordFields, lookup: ConceptLookup) -> Rights? {
        if let resource = terms.lazy.compactMap(\.resource).first(where: { !$0.isEmpty }) {
            return rights(fields.string(resource))
        }
        let statements = lookup.labels(terms, limit: 8)
        return rights(statements.first { $0.hasPrefix("http://") || $0.hasPrefix("https://") } ?? statements.first)
    }

    static func rights(_ statement: String?) -> Rights? {
        DetailText.line(statement).flatMap { Rights(statement: $0) }
    }

    /// An Iconclass notation (`45D12`, `25F23(LION)`, `31A2271`): a digit first, no space, a capital letter or
    /// bracket in it. A code, not a subject to show.
    static func isIconclass(_ label: String) -> Bool {
        let utf8 = label.utf8
        guard let first = utf8.first, (0x30...0x39).contains(first), utf8.count <= 64,
            !utf8.contains(UInt8(ascii: " "))
        else { return false }
        return utf8.contains { (0x41...0x5A).contains($0) || $0 == UInt8(ascii: "(") }
    }

    /// A MIME type (`image/jpeg`, `application/pdf`): shown as the format it is, never as a material.
    static func isMIMEType(_ format: String) -> Bool {
        let utf8 = Array(format.utf8)
        guard let slash = utf8.firstIndex(of: UInt8(ascii: "/")), utf8.count <= 100 else { return false }
        let top = String(decoding: utf8[..<slash], as: UTF8.self).lowercased()
        guard ["application", "audio", "font", "image", "message", "model", "multipart", "text", "video"].contains(top)
        else { return false }
        let subtype = utf8[(slash + 1)...].prefix { $0 != UInt8(ascii: ";") }
        return !subtype.isEmpty
            && subtype.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) || Array("+-._".utf8).contains(byte)
            }
    }

    /// A measurement (`height 10 cm`, `24 x 30 cm.`, `35 mm`): a number, then a unit of length or weight as a word
    /// (`in` not before another number: `1 in 3 parts` is none).
    static func isMeasurement(_ format: String) -> Bool {
        let words = format.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "." }.map {
            $0.hasSuffix(".") ? $0.dropLast() : $0
        }
        return words.indices.dropLast().contains { index in
            let (number, unit) = (words[index], words[index + 1])
            let followedByNumber = words.indices.contains(index + 2) && words[index + 2].first?.isNumber == true
            return number.first?.isNumber == true && number.allSatisfy { $0.isNumber || $0 == "." }
                && ["mm", "cm", "m", "inch", "inches", "ft", "kg", "g"].contains(unit)
                || (number.first?.isNumber == true && unit == "in" && !followedByNumber)
        }
            || words.contains { word in
                // `10cm`
                guard let unitStart = word.firstIndex(where: \.isLetter), unitStart > word.startIndex,
                    word[..<unitStart].allSatisfy({ $0.isNumber || $0 == "." })
                else { return false }
                return ["mm", "cm", "m", "kg", "g"].contains(word[unitStart...])
            }
    }

    /// A name filed surname first (`Rijn, Rembrandt van`): one comma, a short part before it, a part after it,
    /// and no digits (`1606-1669` belongs to life dates, not to a name).
    static func isInverted(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let comma = utf8.firstIndex(of: UInt8(ascii: ",")), !utf8.contains(where: { (0x30...0x39).contains($0) })
        else { return false }
        let before = name[..<comma]
        let after = name[name.utf8.index(after: comma)...]
        return !before.isEmpty && !after.contains(",") && after.contains { !$0.isWhitespace }
            && before.split(separator: " ").count <= 3 && !before.contains("(")
    }
}

extension ConceptLookup {
    /// What both shapes may say beyond the common record: provenance, what the object is part of (a label, else
    /// the address it points at), language, publisher, contributors and source, the types and places after the
    /// shown ones (`types`, `places`: every label; `placesLabel` names the rest of them), and the coordinates of
    /// the place shown. Most records have few of them: each is looked at only when present.
    func addOtherFacts(
        to details: inout ObjectDetails, types: [String], places: [String], placesLabel: String
    ) {
        if !fields.provenances.isEmpty { details.addFact("Provenance", texts(fields.provenances)) }
        if !fields.partOf.isEmpty {
            var parts = DetailText.lines(labels(fields.partOf))
            for term in fields.partOf where parts.count < ObjectDetails.listLimit {
                guard let resource = term.resource, self.label(of: term) == nil else { continue }
                let address = WebURL.filter(fields.string(resource))
                if !address.isEmpty { parts.append(address) }
            }
            details.addFact("Part of", parts)
        }
        if !fields.languageFields.isEmpty { details.addFact("Language", texts(fields.languageFields)) }
        if !fields.publishers.isEmpty { details.addFact("Publisher", texts(fields.publishers)) }
        // Those who took part other than as makers (an editor, an advisor): never a section of the catalog.
        if !fields.contributors.isEmpty { details.addFact("Contributors", texts(fields.contributors)) }
        if !fields.sources.isEmpty { details.addFact("Source", texts(fields.sources)) }
        details.addFact("Other types", Array(types.dropFirst()))
        details.addFact(placesLabel, Array(places.dropFirst()))
        if !fields.coordinates.isEmpty, let shown = places.first,
            let place = fields.places.lazy.compactMap({ self.node(of: $0) }).first(where: {
                self.label(ofConcept: $0).flatMap { DetailText.line(self.fields.string($0)) } == shown
            })
        {
            var latitude: String?
            var longitude: String?
            for coordinate in fields.coordinates where coordinate.concept == place {
                let text = fields.string(coordinate.text)
                // Decimal degrees as written (`52.37`, `-4.5`): not `0x1p5` or `1e2`, which `Double` also reads.
                guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B }),
                    let value = Double(text)
                else { continue }
                if coordinate.isLatitude, latitude == nil, abs(value) <= 90 { latitude = text }
                if !coordinate.isLatitude, longitude == nil, abs(value) <= 180 { longitude = text }
            }
            if let latitude, let longitude { details.addFact("Coordinates", "\(latitude), \(longitude)") }
        }
    }

    /// The node a term names: nested in it, or the one its `rdf:resource` points at.
    private func node(of term: OAIRecordFields.Term) -> Int? {
        term.nestedConcept ?? term.resource.flatMap { concept(describing: $0) }
    }

    /// The texts of literal values in the chosen language (see `isInChosenLanguage`), one line each, at most
    /// `ObjectDetails.listLimit`.
    private func texts(_ labels: [OAIRecordFields.Labelled]) -> [String] {
        let isChosen = fields.isInChosenLanguage(among: labels, languages: languages)
        var texts: [String] = []
        for label in labels where texts.count < ObjectDetails.listLimit && isChosen(label) {
            if let text = DetailText.line(fields.string(label.text)) { texts.append(text) }
        }
        return texts
    }
}
