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
        guard let metadata = record.metadata else { return .skipped(reason: "\(name) has no metadata") }
        switch metadata.name {
        case "RDF", "ProvidedCHO":
            return EDMRecordMapper(languages: languages).outcome(metadata, identifier: record.identifier)
        case "dc":
            return DublinCoreRecordMapper(languages: languages).outcome(metadata, identifier: record.identifier)
        default:
            return .skipped(reason: "\(name) is in a metadata format Vitrine cannot read (<\(metadata.name)>)")
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
/// inside the aggregation and the agent inside `dc:creator`. Every lookup here works for both: elements are
/// found by descendant search, and a reference is `rdf:resource` or the nested element's `rdf:about`.
struct EDMRecordMapper {
    var languages: [String]

    func outcome(_ root: XMLElementNode, identifier: String) -> RecordOutcome {
        let name = identifier.isEmpty ? "a record" : identifier
        guard let cho = root.name == "ProvidedCHO" ? root : root.firstDescendant("ProvidedCHO") else {
            return .skipped(reason: "\(name) has no edm:ProvidedCHO")
        }
        let aggregation = root.firstDescendant("Aggregation")

        let number = cho.children("identifier").compactMap(\.nonBlankText).first
        let id =
            number ?? OAIRecordMapper.shortIdentifier(identifier.isEmpty ? cho.attributes["about"] ?? "" : identifier)
        guard !id.isEmpty else { return .skipped(reason: "\(name) has no dc:identifier") }

        let title =
            cho.children("title").text(preferring: languages)
            ?? cho.children("alternative").text(preferring: languages) ?? ""
        let maker = cho.children("creator").lazy.compactMap { creator -> String? in
            if let target = creator.attributes["resource"], let agent = root.firstDescribed(target) {
                return agent.children("prefLabel").text(preferring: languages)
            }
            if let agent = creator.children.first {
                return agent.children("prefLabel").text(preferring: languages)
            }
            return creator.nonBlankText
        }.first
        let date =
            cho.children("created").text(preferring: languages) ?? cho.children("date").text(preferring: languages)

        return .object(
            ArtObject(
                id: id,
                title: title,
                maker: maker,
                date: date,
                image: image(aggregation, root: root),
                objectURL: link(aggregation, identifier: identifier)
            )
        )
    }

    /// `edm:isShownBy` (else `edm:object`), sized through its IIIF service when the record names one.
    private func image(_ aggregation: XMLElementNode?, root: XMLElementNode) -> ImageReference? {
        guard let aggregation else { return nil }
        for field in ["isShownBy", "object"] {
            guard let element = aggregation.child(field), let url = element.reference else { continue }
            let webResource = element.children.first { $0.name == "WebResource" } ?? root.firstDescribed(url)
            let service = webResource?.child("has_service")?.reference
            if let image = ImageURL.reference(url, service: service) { return image }
        }
        return nil
    }

    /// `edm:isShownAt`, else the record's identifier when it is a web address.
    private func link(_ aggregation: XMLElementNode?, identifier: String) -> String? {
        if let page = aggregation?.child("isShownAt")?.reference, ImageURL.isWebURL(page) { return page }
        return ImageURL.isWebURL(identifier) ? identifier : nil
    }
}

/// Reads unqualified Dublin Core (`oai_dc`), the format every OAI-PMH repository serves.
struct DublinCoreRecordMapper {
    var languages: [String]

    func outcome(_ dc: XMLElementNode, identifier: String) -> RecordOutcome {
        let identifiers = dc.children("identifier").compactMap(\.nonBlankText)
        let candidates =
            dc.children("relation").compactMap(\.nonBlankText) + identifiers
            + dc.children("format").compactMap(\.nonBlankText)
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
                title: dc.children("title").text(preferring: languages) ?? "",
                maker: dc.children("creator").text(preferring: languages).map(Self.withoutRole),
                date: dc.children("date").text(preferring: languages),
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
