/// All objects of one maker, in catalog order (`CatalogOrder`).
package struct ArtistSection: Sendable, Equatable {
    /// The maker's display name; `nil` for the section of objects with no known maker.
    package var maker: String?
    package var objects: [ArtObject]

    package init(maker: String?, objects: [ArtObject]) {
        self.maker = maker
        self.objects = objects
    }
}
