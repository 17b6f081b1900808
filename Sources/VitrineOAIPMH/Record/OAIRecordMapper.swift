import Foundation
import VitrineCore
import VitrineSources

/// Turns an OAI-PMH record into an `ArtObject`, whatever its metadata format: EDM (`rdf:RDF`, both the flat
/// and the nested shape) or Dublin Core (`oai_dc:dc`). Other formats are skipped with a reason.
package struct OAIRecordMapper: Sendable {
    /// Languages for titles and labels, most wanted first (`--language`, then English, then Dutch), as the
    /// lower-case bytes a label's `xml:lang` is compared with.
    private let languages: [[UInt8]]

    package init(language: String) {
        var codes: [String] = []
        for code in [language.lowercased(), "en", "nl"] where !codes.contains(code) { codes.append(code) }
        self.languages = codes.map { Array($0.utf8) }
    }

    package func outcome(for fields: OAIRecordFields) -> RecordOutcome {
        if fields.isDeleted {
            return .deleted(recordID: fields.string(fields.identifier).flatMap { $0.isEmpty ? nil : $0 })
        }
        switch fields.format {
        case nil:
            return .skipped(reason: "\(Self.name(fields)) has no metadata")
        case .edm:
            return EDMRecordMapper(languages: languages).outcome(fields)
        case .dublinCore:
            return DublinCoreRecordMapper(languages: languages).outcome(fields)
        case .other(let format):
            // Any wrapper whose record uses Dublin Core elements (`dc:`, `dcterms:`) is read as Dublin Core.
            guard fields.titles.isEmpty && fields.creators.isEmpty && fields.identifiers.isEmpty && fields.dates.isEmpty
            else { return DublinCoreRecordMapper(languages: languages).outcome(fields) }
            return .skipped(
                reason: "\(Self.name(fields)) is in a metadata format Vitrine cannot read (<\(format)>, with no "
                    + "Dublin Core elements)")
        }
    }

    /// The record as a skip reason names it.
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
/// Since June 2026 the record is flat (`ore:Aggregation`, `edm:ProvidedCHO`, `edm:WebResource`, `edm:Agent`
/// side by side; `dc:creator rdf:resource` points at an agent in the same record). Before, the ProvidedCHO sat
/// inside the aggregation and the agent inside `dc:creator`. The collected fields cover both: a reference is
/// `rdf:resource` or the nested element's `rdf:about`, and agents and web resources are kept wherever they sit.
struct EDMRecordMapper {
    var languages: [[UInt8]]

    func outcome(_ fields: OAIRecordFields) -> RecordOutcome {
        guard fields.hasProvidedCHO else {
            return .skipped(reason: "\(OAIRecordMapper.name(fields, otherwise: "a record")) has no edm:ProvidedCHO")
        }
        // The header identifier is read only when the record itself does not say.
        let identifier = { fields.string(fields.identifier) ?? "" }
        let id =
            fields.string(fields.identifiers.first)
            ?? OAIRecordMapper.shortIdentifier(identifier().isEmpty ? fields.string(fields.about) ?? "" : identifier())
        guard !id.isEmpty else {
            return .skipped(reason: "\(OAIRecordMapper.name(fields, otherwise: "a record")) has no dc:identifier")
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
        let maker = fields.creators.lazy.compactMap { creator -> OAIRecordFields.Span? in
            if let target = creator.resource,
                let agent = index.map({ $0.agent(describing: target, in: fields) }) ?? fields.agent(describing: target)
            {
                return label(ofAgent: agent)
            }
            if let agent = creator.nestedAgent {
                return label(ofAgent: agent)
            }
            return creator.name.text.isEmpty ? nil : creator.name.text
        }.first
        let date =
            fields.preferred(fields.created, languages: languages)
            ?? fields.preferred(fields.dates, languages: languages)

        return .object(
            ArtObject(
                id: id,
                title: fields.string(title) ?? "",
                maker: fields.string(maker),
                date: fields.string(date),
                image: image(fields),
                objectURL: link(fields, identifier: identifier),
                recordID: fields.string(fields.identifier).flatMap { $0.isEmpty ? nil : $0 },
                datestamp: fields.string(fields.datestamp)
            )
        )
    }

    /// `edm:isShownBy` (else `edm:object`), sized through its IIIF service when the record names one.
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
        let candidates = dc.relations.map { dc.string($0) } + identifiers + dc.formats.map { dc.string($0) }
        let imageURL = candidates.first(where: ImageURL.isImage)
        let link =
            identifiers.first { WebURL.isValid($0) && !ImageURL.isImage($0) }
            ?? (WebURL.isValid(identifier) ? identifier : nil)
        // A dc:identifier may be a citation or an ISSN the record shares with others (DSpace): only a short
        // token without spaces is taken for the object's number; the header identifier tells records apart.
        let number = identifiers.first { !WebURL.isValid($0) && $0.count <= 64 && !$0.contains(where: \.isWhitespace) }
        let id = number ?? OAIRecordMapper.shortIdentifier(identifier)
        guard !id.isEmpty else { return .skipped(reason: "a record has neither header identifier nor dc:identifier") }
        return .object(
            ArtObject(
                id: id,
                title: dc.string(dc.preferred(dc.titles, languages: languages)) ?? "",
                maker: dc.string(dc.preferred(dc.creators.lazy.map(\.name), languages: languages))
                    .map(Self.withoutRole),
                date: dc.string(dc.preferred(dc.dates, languages: languages)),
                image: imageURL.flatMap { ImageURL.reference($0) },
                objectURL: link,
                recordID: identifier.isEmpty ? nil : identifier,
                datestamp: dc.string(dc.datestamp)
            )
        )
    }

    /// `schilder: Rijn, Rembrandt van` → `Rijn, Rembrandt van`: a lower-case role before a colon is dropped.
    static func withoutRole(_ creator: String) -> String {
        guard let colon = creator.firstIndex(of: ":") else { return creator }
        let role = creator[..<colon]
        guard (2...30).contains(role.count), role.allSatisfy({ $0.isLowercase || $0 == " " || $0 == "-" }) else {
            return creator
        }
        let rest = creator[creator.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return rest.isEmpty ? creator : rest
    }
}
