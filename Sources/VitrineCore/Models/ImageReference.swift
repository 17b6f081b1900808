/// An object's image, with the rules of the host that serves it, so the Presenter can ask for any width.
package struct ImageReference: Sendable, Equatable {
    /// How the image host makes smaller renditions.
    package enum Sizing: Sendable, Equatable {
        /// Google's image host (`lh3.googleusercontent.com`, `lh*.ggpht.com`): a `=s0` / `=w{N}` suffix.
        case googleImageHost
        /// A IIIF Image API service: `{service}/full/{N},/0/default.jpg`; `cachedWidths` are the widths the
        /// host serves fastest (the smallest one at least as wide as asked is used).
        case iiif(service: String, cachedWidths: [Int])
        /// Imgix (Unsplash): the raw URL plus `&w={N}`.
        case imgix
        /// Fixed renditions only: a smaller one when the source offers it.
        case fixed(smallURL: String?, smallWidth: Int?)
        /// A file the export writes itself, beside the catalogs (the demo's pictures): `url` is its path relative
        /// to the output folder (`images/demo-0001.svg`), and the source gives its bytes.
        case bundled
    }

    /// The full-size image.
    package var url: String
    /// Pixel width of the full-size image, when the source says.
    package var width: Int?
    /// Pixel height of the full-size image, when the source says.
    package var height: Int?
    /// How to ask the host for other sizes.
    package var sizing: Sizing

    package init(url: String, width: Int? = nil, height: Int? = nil, sizing: Sizing) {
        self.url = url
        self.width = width.flatMap { $0 > 0 ? $0 : nil }
        self.height = height.flatMap { $0 > 0 ? $0 : nil }
        self.sizing = sizing
    }
}
