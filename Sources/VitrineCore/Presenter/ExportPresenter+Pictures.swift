// The Presenter's rules for an object's pictures: which thumbnail a card shows, the one at twice its width for
// `srcset`, the detail page's rendition and the full image. The thumbnail is made once, as every format shows it;
// the others when a page asks (each page model asks once), not held per object: each shows on one kind of page,
// and held they would add three URLs to every object the catalog keeps in memory.
extension ExportPresenter {
    /// The thumbnail at `width`: an empty URL (and the requested width as its size) when there is no image or its
    /// URL is neither a web address nor, for the demo's pictures, a path inside the output folder.
    package static func thumbnail(of image: ImageReference?, width: Int) -> ThumbnailSelector.Thumbnail {
        let none = ThumbnailSelector.Thumbnail(url: "", width: width, height: width)
        guard let image else { return none }
        let candidate = ThumbnailSelector.thumbnail(for: image, width: width)
        return checked(candidate.url, of: image).isEmpty ? none : candidate
    }

    /// The thumbnail at twice `width`; empty when the host cannot size images or the original is no wider.
    package static func doubleThumbnailURL(of image: ImageReference?, width: Int) -> String {
        guard let image else { return "" }
        let single = ThumbnailSelector.thumbnail(for: image, width: width)
        let twice = ThumbnailSelector.thumbnail(for: image, width: width * 2)
        guard twice.url != single.url, twice.width > single.width else { return "" }
        return checked(twice.url, of: image)
    }

    /// The detail page's rendition (IIIF 843 px wide where the source has IIIF) and its size; an empty URL and no
    /// size when there is none.
    package static func largeImage(of image: ImageReference?) -> ThumbnailSelector.Thumbnail {
        let none = ThumbnailSelector.Thumbnail(url: "", width: 0, height: 0)
        guard let image else { return none }
        let detail = ThumbnailSelector.thumbnail(for: image, width: largeImageWidth)
        return checked(detail.url, of: image).isEmpty ? none : detail
    }

    /// The full-size image; empty when there is none.
    package static func fullImageURL(of image: ImageReference?) -> String {
        guard let image else { return "" }
        return checked(ThumbnailSelector.fullImageURL(for: image), of: image)
    }

    /// A bundled picture's URL is its path in the output folder; every other one must be a web address.
    private static func checked(_ url: String, of image: ImageReference) -> String {
        image.sizing == .bundled ? WebURL.filterBundledPath(url) : WebURL.filter(url)
    }
}

extension CatalogViewModel.DisplayedObject {
    package var hasThumbnail: Bool { !thumbnailURL.isEmpty }
    /// The thumbnail at twice the width, for `srcset`; empty when the host cannot size images.
    package var thumbnail2xURL: String { ExportPresenter.doubleThumbnailURL(of: image, width: requestedWidth) }
    /// The detail page's rendition and its size.
    package var largeImage: ThumbnailSelector.Thumbnail { ExportPresenter.largeImage(of: image) }
    package var largeImageURL: String { largeImage.url }
    package var largeWidth: Int { largeImage.width }
    package var largeHeight: Int { largeImage.height }
    /// `http(s)` URL of the full-size image; empty when there is none.
    package var imageURL: String { ExportPresenter.fullImageURL(of: image) }
}

extension UnsafePointer<CatalogViewModel.DisplayedObject> {
    // The same, from a pointer to the object (see `altText` in `CatalogViewModel.swift`): each from the fields it
    // needs, since a computed property of `pointee` copies the whole object to call its getter.

    /// `thumbnail2xURL` of the object pointed to.
    package var thumbnail2xURL: String {
        ExportPresenter.doubleThumbnailURL(of: pointee.image, width: pointee.requestedWidth)
    }
    /// `largeImage` of the object pointed to.
    package var largeImage: ThumbnailSelector.Thumbnail { ExportPresenter.largeImage(of: pointee.image) }
    /// `imageURL` of the object pointed to.
    package var imageURL: String { ExportPresenter.fullImageURL(of: pointee.image) }
}
