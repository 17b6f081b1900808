/// The sources a user can name with `--source`.
package enum SourceID: String, Sendable, CaseIterable {
    /// The bundled demo collection: no network, no key.
    case demo
    /// The Rijksmuseum's whole collection through its OAI-PMH service (EDM records).
    case rijksmuseum
    /// The Rijksmuseum's retired collection API (JSON, `p`/`ps`), for mirrors and recorded data.
    case rijksmuseumLegacy = "rijksmuseum-legacy"
    /// The Art Institute of Chicago's public API.
    case aic
    /// The Metropolitan Museum of Art's collection API.
    case met
    /// Unsplash's photo API (a key is needed).
    case unsplash
    /// Any OAI-PMH 2.0 repository (`--base-url` needed).
    case oai
}
