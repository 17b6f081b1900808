import VitrineCore
import VitrineSources

/// The Rijksmuseum's current data service: its OAI-PMH endpoint with EDM records, the only way to the whole
/// collection (about 844,000 records, 50 a page, no key).
package enum RijksmuseumOAISource {
    package static let defaultBaseURL = "https://data.rijksmuseum.nl/oai"

    package static let descriptor = SourceDescriptor(
        name: SourceID.rijksmuseum.rawValue,
        institution: "Rijksmuseum",
        defaultBaseURL: defaultBaseURL,
        paging: "OAI-PMH resumption tokens, 50 records a page, one after another (about 844,000 records)",
        keyVariable: nil,
        filters: ["--set", "--from", "--until", "--metadata-prefix", "--language"],
        summary: "The Rijksmuseum's whole collection through its OAI-PMH service (EDM; --metadata-prefix oai_dc too)."
    )

    /// Builds the source; `--set` takes the museum's numeric set specs (`260214` is its top 1000).
    package static func source(_ configuration: SourceConfiguration) throws(ExportError) -> OAIPMHSource {
        try OAIPMHSource(configuration, descriptor: descriptor, defaultBaseURL: defaultBaseURL, defaultPrefix: "edm")
    }

    /// `--source rijksmuseum`.
    package static let registration = SourceRegistration(descriptor: descriptor) {
        configuration, _ throws(ExportError) in
        try source(configuration)
    }
}

extension SourceID {
    package static let rijksmuseum: SourceID = "rijksmuseum"
}
