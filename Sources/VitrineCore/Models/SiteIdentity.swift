/// What the published site calls itself (`--site-title`, `--site-description`). Without a title the catalog is
/// named after the source's institution (`Rijksmuseum collection`), never after a host or a source's key.
package struct SiteIdentity: Sendable, Equatable {
    package var title: String?
    package var description: String?

    package init(title: String? = nil, description: String? = nil) {
        self.title = title
        self.description = description
    }
}
