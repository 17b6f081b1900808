import Foundation
import VitrineCore
import VitrineSources

/// Turns an OAI-PMH record into an `ArtObject`, whatever its metadata format: EDM (`rdf:RDF`, both the flat
/// and the nested shape) or Dublin Core (`oai_dc:dc`). Other formats are skipped with a reason.
package struct OAIRecordMapper: Sendable {
    /// Languages for titles and labels, most wanted first (`--language`, then English, then Dutch), as the
    /// lower-case bytes a label's `xml:lang` is compared with.
    private let languages: [[UInt8]]
    /// `--set`, whose records' headers are looked at.
    private let set: String?

    package init(language: String, set: String? = nil) {
        var codes: [String] = []
        for code in [language.lowercased(), "en", "nl"] where !codes.contains(code) { codes.append(code) }
        self.languages = codes.map { Array($0.utf8) }
        self.set = set
    }

    /// Whether a live record's header names sets, none of them `--set` or a set inside it (`set:part`): listed by
    /// a repository that did not apply the set.
    package func isOutsideSet(_ fields: OAIRecordFields) -> Bool {
        guard let set, !fields.isDeleted, !fields.setSpecs.isEmpty else { return false }
        return !fields.setSpecs.contains { span in
            fields.string(span).map { $0 == set || $0.hasPrefix(set + ":") } ?? false
        }
    }

    package func outcome(for fields: OAIRecordFields) -> RecordOutcome {
        if fields.isDeleted {
            return .deleted(
                recordID: fields.string(fields.identifier).flatMap { $0.isEmpty ? nil : $0 },
                datestamp: fields.string(fields.datestamp))
        }
        switch fields.format {
        case nil:
            return Self.skipped("\(Self.name(fields)) has no metadata", fields)
        case .edm:
            return EDMRecordMapper(languages: languages).outcome(fields)
        case .dublinCore:
            return DublinCoreRecordMapper(languages: languages).outcome(fields)
        case .other(let format):
            // Any wrapper whose record uses Dublin Core elements (`dc:`, `dcterms:`) is read as Dublin Core.
            guard fields.titles.isEmpty && fields.creators.isEmpty && fields.identifiers.isEmpty && fields.dates.isEmpty
            else { return DublinCoreRecordMapper(languages: languages).outcome(fields) }
            return Self.skipped(
                "\(Self.name(fields)) is in a metadata format Vitrine cannot read (<\(format)>, with no "
                    + "Dublin Core elements)", fields)
        }
    }

    /// The record as a skip reason names it.
    /// A record that cannot be read, under its header's identifier: a version of it stored before goes.
    static func skipped(_ reason: String, _ fields: OAIRecordFields) -> RecordOutcome {
        .skipped(
            reason: reason, recordID: fields.string(fields.identifier).flatMap { $0.isEmpty ? nil : $0 },
            datestamp: fields.string(fields.datestamp))
    }

    static func name(_ fields: OAIRecordFields, otherwise: String = "a record without identifier") -> String {
        let identifier = fields.string(fields.identifier) ?? ""
        return identifier.isEmpty ? otherwise : identifier
    }

    /// The last path segment of a URI identifier (`https://id.rijksmuseum.nl/200107928` → `200107928`), or the
    /// part after the last colon of an `oai:` identifier.
    static func shortIdentifier(_ identifier: String) -> String {
        if WebURL.isValid(identifier) {
            return identifier.split(separator: "/").last.map(String.init) ?? identifier
        }
        if identifier.hasPrefix("oai:") { return identifier.split(separator: ":").last.map(String.init) ?? identifier }
        return identifier
    }
}

/// Reads Europeana Data Model records, the Rijksmuseum's `metadataPrefix=edm`.
///
/// A record comes in one of two shapes: flat, as the Rijksmuseum serves it now (`ore:Aggregation`,
/// `edm:ProvidedCHO`, `edm:WebResource`, `edm:Agent` side by side; `dc:creator rdf:resource` points at an agent in
/// the same record), or nested (the ProvidedCHO inside the aggregation, the agent inside `dc:creator`). The
/// collected fields cover both: a reference is `rdf:resource` or the nested element's `rdf:about`, and agents and
/// web resources are kept wherever they sit.
struct EDMRecordMapper {
    var languages: [[UInt8]]

    func outcome(_ fields: OAIRecordFields) -> RecordOutcome {
        guard fields.hasProvidedCHO else {
            return OAIRecordMapper.skipped(
                "\(OAIRecordMapper.name(fields, otherwise: "a record")) has no edm:ProvidedCHO", fields)
        }
        // The header identifier is read only when the record itself does not say.
        let identifier = { fields.string(fields.identifier) ?? "" }
        let id =
            fields.string(fields.identifiers.first)
            ?? OAIRecordMapper.shortIdentifier(identifier().isEmpty ? fields.string(fields.about) ?? "" : identifier())
        guard !id.isEmpty else {
            return OAIRecordMapper.skipped(
                "\(OAIRecordMapper.name(fields, otherwise: "a record")) has no dc:identifier", fields)
        }

        let title =
            fields.preferred(fields.titles, languages: languages)
            ?? fields.preferred(fields.alternatives, languages: languages)
        // A record has one or two creators; a pathological one thousands: then agents are indexed once.
        let index = fields.creators.count > 8 ? OAIRecordFields.AgentIndex(fields) : nil
        func label(ofAgent agent: Int) -> OAIRecordFields.Span? {
            index.map { $0.preferredLabel(ofAgent: agent, in: fields, languages: languages) }
                ?? fields.preferredLabel(ofAgent: agent, languages: languages)
        }
        // Each creator's name and agent; a record of thousands of creators lists its first `ObjectDetails.listLimit`
        // as makers.
        let creators = Array(
            fields.creators.lazy.compactMap { creator -> (name: OAIRecordFields.Span, agent: Int?)? in
                if let target = creator.resource,
                    let agent = index.map({ $0.agent(describing: target, in: fields) })
                        ?? fields.agent(describing: target)
                {
                    return label(ofAgent: agent).map { ($0, agent) }
                }
                if let agent = creator.nestedAgent {
                    return label(ofAgent: agent).map { ($0, agent) }
                }
                return creator.name.text.isEmpty ? nil : (creator.name.text, nil)
            }.prefix(ObjectDetails.listLimit))
        let maker = creators.first?.name
        let date = fields.string(dateLabel(fields.created, fields) ?? dateLabel(fields.dates, fields))

        return .object(
            ArtObject(
                id: id,
                title: fields.string(title) ?? "",
                maker: fields.string(maker),
                date: date,
                image: image(fields),
                objectURL: link(fields, identifier: identifier),
                recordID: fields.string(fields.identifier).flatMap { $0.isEmpty ? nil : $0 },
                datestamp: fields.string(fields.datestamp),
                details: details(fields, creators: creators, date: date)
            )
        )
    }

    /// `edm:isShownBy` (else `edm:object`), sized through its IIIF service when the record names one.
    /// A date's text in the preferred language, else the label of the time span it points at (`edm:TimeSpan`, in
    /// the record; one it does not describe names nothing).
    private func dateLabel(_ terms: [OAIRecordFields.Term], _ fields: OAIRecordFields) -> OAIRecordFields.Span? {
        let literals = terms.lazy.filter { $0.resource == nil && $0.nestedConcept == nil }.map(\.text)
        if let text = fields.preferred(literals, languages: languages) { return text }
        guard terms.contains(where: { $0.resource != nil || $0.nestedConcept != nil }) else { return nil }
        let spans = ConceptLookup(fields, languages: languages)
        return terms.lazy.compactMap { spans.label(of: $0) }.first
    }

    private func image(_ fields: OAIRecordFields) -> ImageReference? {
        for reference in [fields.isShownBy, fields.object] {
            guard let url = reference?.value else { continue }
            let service = fields.string(fields.service(of: url))
            if let image = ImageURL.reference(fields.string(url), service: service) { return image }
        }
        return nil
    }

    /// `edm:isShownAt`, else the record's identifier when it is a web address.
    private func link(_ fields: OAIRecordFields, identifier: () -> String) -> String? {
        if let page = fields.string(fields.isShownAt?.value), WebURL.isValid(page) { return page }
        let identifier = identifier()
        return WebURL.isValid(identifier) ? identifier : nil
    }
}

/// Reads unqualified Dublin Core (`oai_dc`), the format every OAI-PMH repository serves.
struct DublinCoreRecordMapper {
    var languages: [[UInt8]]

    func outcome(_ dc: OAIRecordFields) -> RecordOutcome {
        let identifier = dc.string(dc.identifier) ?? ""
        let identifiers = dc.identifiers.map { dc.string($0) }
        // Each identifier is asked once whether it is a picture: it may be the image, and is never the link then.
        let identifierImages = zip(identifiers, identifiers.map(ImageURL.isImage))
        let date = dc.string(dc.preferred(dc.dates.lazy.map(\.text), languages: languages))
        let imageURL =
            dc.relations.lazy.map { dc.string($0) }.first(where: ImageURL.isImage)
            ?? identifierImages.first { $0.1 }?.0
            ?? dc.formats.lazy.map { dc.string($0) }.first(where: ImageURL.isImage)
        let link =
            identifierImages.first { !$0.1 && WebURL.isValid($0.0) }?.0
            ?? (WebURL.isValid(identifier) ? identifier : nil)
        // A dc:identifier may be a citation or an ISSN the record shares with others (DSpace): only a short
        // token without spaces is taken for the object's number; the header identifier tells records apart.
        let number = identifiers.first { !WebURL.isValid($0) && Self.isToken($0) }
        let id = number ?? OAIRecordMapper.shortIdentifier(identifier)
        guard !id.isEmpty else { return .skipped(reason: "a record has neither header identifier nor dc:identifier") }
        return .object(
            ArtObject(
                id: id,
                title: dc.string(dc.preferred(dc.titles, languages: languages)) ?? "",
                maker: dc.string(dc.preferred(dc.creators.lazy.map(\.name), languages: languages))
                    .map(Self.withoutRole),
                date: date,
                image: imageURL.flatMap { ImageURL.reference($0) },
                objectURL: link,
                recordID: identifier.isEmpty ? nil : identifier,
                datestamp: dc.string(dc.datestamp),
                details: details(dc, date: date)
            )
        )
    }

    /// Whether a `dc:identifier` is a short token: at most 64 characters, none of them whitespace. Printable ASCII
    /// is checked byte by byte; anything else character by character.
    static func isToken(_ identifier: String) -> Bool {
        let utf8 = identifier.utf8
        if utf8.count <= 64, utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { return true }
        return identifier.count <= 64 && !identifier.contains(where: \.isWhitespace)
    }

    /// `schilder: Rijn, Rembrandt van` → `Rijn, Rembrandt van`: a lower-case role before a colon is dropped; a role
    /// alone (`schilder:`) names no one, and is empty.
    static func withoutRole(_ creator: String) -> String {
        // Most creators are read from their bytes: one with no colon, or with a role of ASCII letters and an ASCII
        // byte after the colon (a combining mark there would make the colon part of another character). This runs
        // for every creator of every record, and walking `Character`s is left to the rare rest.
        let utf8 = creator.utf8
        guard let byteColon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return creator }
        let after = utf8.index(after: byteColon)
        if utf8[..<byteColon].allSatisfy({ $0 < 0x80 }), after == utf8.endIndex || utf8[after] < 0x80 {
            let role = utf8[..<byteColon]
            guard (2...30).contains(role.count),
                role.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == 0x20 || $0 == 0x2D }),
                !isAddress(creator, afterRole: Substring(role))
            else { return creator }
            return Self.trimmingSpaces(creator[after...])
        }
        return roleDroppedByCharacters(creator)
    }

    /// Whether what looks like a role is an address's scheme (`http://viaf.org/…`, `urn:isni:…`): a creator given
    /// by its authority record keeps it whole.
    static func isAddress(_ creator: String, afterRole role: Substring) -> Bool {
        creator.dropFirst(role.count + 1).hasPrefix("//")
            || ["urn", "info", "doi", "ark", "hdl", "mailto", "tag", "http", "https"].contains(role)
    }

    /// `withoutRole`'s general path, character by character.
    static func roleDroppedByCharacters(_ creator: String) -> String {
        guard let colon = creator.firstIndex(of: ":") else { return creator }
        let role = creator[..<colon]
        guard (2...30).contains(role.count), role.allSatisfy({ $0.isLowercase || $0 == " " || $0 == "-" }),
            !isAddress(creator, afterRole: role)
        else {
            return creator
        }
        return creator[creator.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    /// `text` without the spaces and tabs at either end, as `trimmingCharacters(in: .whitespaces)` gives it:
    /// ASCII ones are dropped byte by byte; Foundation is asked only when an end is not ASCII (a no-break space).
    static func trimmingSpaces(_ text: Substring) -> String {
        let utf8 = text.utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        let trimmed = Substring(utf8[first...last])
        guard utf8[first] < 0x80, utf8[last] < 0x80 else { return trimmed.trimmingCharacters(in: .whitespaces) }
        return String(trimmed)
    }
}
