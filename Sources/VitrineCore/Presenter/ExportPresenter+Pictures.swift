// The Presenter's rules for an object's pictures: which thumbnail a card shows, the one at twice its width for
// `srcset`, the detail page's rendition and the full image.
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
