/// The file names of the objects' detail pages (`{id}.html`, unique, ASCII, bounded), given a part at a time in
/// catalog order: a name taken by an earlier part stays taken.
package struct ObjectPageNames: Sendable {
    private var registry = Slug.Registry(reserved: ["index"])

    package init() {}

    /// Names the page of every object of `sections`, in order.
    package mutating func name(_ sections: inout [[CatalogViewModel.DisplayedObject]]) {
        for section in sections.indices {
            for position in sections[section].indices {
                sections[section][position].pageName =
                    registry.claim(Slug.make(sections[section][position].id, fallback: "object")) + ".html"
            }
        }
    }
}
