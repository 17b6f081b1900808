/// The sources a user can name with `--source`.
package enum SourceID: String, Sendable, CaseIterable {
    /// The bundled demo collection: no network, no key.
    case demo
    /// The Rijksmuseum's retired collection API (JSON, `p`/`ps`), for mirrors and recorded data.
    case rijksmuseumLegacy = "rijksmuseum-legacy"
}
