import Foundation
import VitrineCore

/// Turns an OAI-PMH record into an `ArtObject`, whatever its metadata format: EDM (`rdf:RDF`, both the flat
/// and the nested shape) or Dublin Core (`oai_dc:dc`). Other formats are skipped with a reason.
package struct OAIRecordMapper: Sendable {
    /// Languages for titles and labels, most wanted first (`--language`, then English, then Dutch).
    package var languages: [String]

    package init(language: String) {
        var languages: [String] = []
        for code in [language.lowercased(), "en", "nl"] where !languages.contains(code) { languages.append(code) }
        self.languages = languages
    }

    package func outcome(for record: OAIPMHResponse.Record) -> RecordOutcome {
        if record.isDeleted { return .deleted }
        let name = record.identifier.isEmpty ? "a record without identifier" : record.identifier
        switch record.fields.format {
        case nil:
            return .skipped(reason: "\(name) has no metadata")
        case .edm:
            return EDMRecordMapper(languages: languages).outcome(record.fields, identifier: record.identifier)
        case .dublinCore:
            return DublinCoreRecordMapper(languages: languages).outcome(record.fields, identifier: record.identifier)
        case .other(let format):
            return .skipped(reason: "\(name) is in a metadata format Vitrine cannot read (<\(format)>)")
        }
    }

    /// The last path segment of a URI identifier (`https://id.rijksmuseum.nl/200107928` → `200107928`), or the
    /// part after the last colon of an `oai:` identifier.
    static func shortIdentifier(_ identifier: String) -> String {
        if ImageURL.isWebURL(identifier) {
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
    var languages: [String]

    func outcome(_ fields: OAIRecordFields, identifier: String) -> RecordOutcome {
        let name = identifier.isEmpty ? "a record" : identifier
        guard fields.hasProvidedCHO else { return .skipped(reason: "\(name) has no edm:ProvidedCHO") }
        let id =
            fields.identifiers.first
            ?? OAIRecordMapper.shortIdentifier(identifier.isEmpty ? fields.about ?? "" : identifier)
        guard !id.isEmpty else { return .skipped(reason: "\(name) has no dc:identifier") }

        let title =
            fields.titles.text(preferring: languages) ?? fields.alternatives.text(preferring: languages) ?? ""
        let maker = fields.creators.lazy.compactMap { creator -> String? in
            if let target = creator.resource, let labels = fields.agentLabels(target) {
                return labels.text(preferring: languages)
            }
            if let agent = creator.nestedAgent {
                return fields.agents[agent].labels.text(preferring: languages)
            }
            return creator.name.text.isEmpty ? nil : creator.name.text
        }.first
        let date = fields.created.text(preferring: languages) ?? fields.dates.text(preferring: languages)

        return .object(
            ArtObject(
                id: id,
                title: title,
                maker: maker,
                date: date,
                image: image(fields),
                objectURL: link(fields, identifier: identifier)
            )
        )
    }

    /// `edm:isShownBy` (else `edm:object`), sized through its IIIF service when the record names one.
    private func image(_ fields: OAIRecordFields) -> ImageReference? {
        for reference in [fields.isShownBy, fields.object] {
            guard let url = reference?.value else { continue }
            if let image = ImageURL.reference(url, service: fields.service(of: url)) { return image }
        }
        return nil
    }

    /// `edm:isShownAt`, else the record's identifier when it is a web address.
    private func link(_ fields: OAIRecordFields, identifier: String) -> String? {
        if let page = fields.isShownAt?.value, ImageURL.isWebURL(page) { return page }
        return ImageURL.isWebURL(identifier) ? identifier : nil
    }
}

/// Reads unqualified Dublin Core (`oai_dc`), the format every OAI-PMH repository serves.
struct DublinCoreRecordMapper {
    var languages: [String]

    func outcome(_ dc: OAIRecordFields, identifier: String) -> RecordOutcome {
        let identifiers = dc.identifiers
        let candidates = dc.relations + identifiers + dc.formats
        let imageURL = candidates.first(where: ImageURL.isImage)
        let link =
            identifiers.first { ImageURL.isWebURL($0) && !ImageURL.isImage($0) }
            ?? (ImageURL.isWebURL(identifier) ? identifier : nil)
        let number = identifiers.first { !ImageURL.isWebURL($0) }
        let id = number ?? OAIRecordMapper.shortIdentifier(identifier)
        guard !id.isEmpty else { return .skipped(reason: "a record has neither header identifier nor dc:identifier") }
        return .object(
            ArtObject(
                id: id,
                title: dc.titles.text(preferring: languages) ?? "",
                maker: dc.creators.map(\.name).text(preferring: languages).map(Self.withoutRole),
                date: dc.dates.text(preferring: languages),
                image: imageURL.flatMap { ImageURL.reference($0) },
                objectURL: link
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
