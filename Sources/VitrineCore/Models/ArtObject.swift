/// One object of a collection, as every source maps it: the common shape the Interactor groups.
package struct ArtObject: Sendable, Equatable {
    /// The museum's own identifier (object number, accession number, photo id).
    package var id: String
    /// The title, as the source gives it.
    package var title: String
    /// The maker's display name; `nil` or blank when the source names no maker.
    package var maker: String?
    /// The date as the museum writes it (`1642`, `c. 1665 - c. 1670`).
    package var date: String?
    /// The object's image and how to size it; `nil` when there is none.
    package var image: ImageReference?
    /// The museum's web page for the object.
    package var objectURL: String?

    package init(
        id: String,
        title: String,
        maker: String? = nil,
        date: String? = nil,
        image: ImageReference? = nil,
        objectURL: String? = nil
    ) {
        self.id = id
        self.title = title
        self.maker = maker
        self.date = date
        self.image = image
        self.objectURL = objectURL
    }
}
