/// Picks each object's thumbnail: the smallest rendition at least as wide as asked, by the image host's own
/// rules, never wider than the original.
package enum ThumbnailSelector {
    /// A chosen rendition and its size in pixels (the height is estimated when the source gives no size).
    package struct Thumbnail: Sendable, Equatable {
        package var url: String
        package var width: Int
        package var height: Int
    }

    /// The thumbnail of `image` for a requested width in pixels.
    package static func thumbnail(for image: ImageReference, width requested: Int) -> Thumbnail {
        let target = image.width.map { min($0, requested) } ?? requested
        switch image.sizing {
        case .googleImageHost:
            let base = googleBase(image.url)
            let url = image.width.map { requested >= $0 } == true ? base + "=s0" : base + "=w\(target)"
            return Thumbnail(url: url, width: target, height: height(of: image, atWidth: target))
        case .iiif(let service, let cachedWidths):
            let cached = cachedWidths.sorted().first { $0 >= requested }
            let width = min(cached ?? requested, image.width ?? Int.max)
            let url = "\(service)/full/\(width),/0/default.jpg"
            return Thumbnail(url: url, width: width, height: height(of: image, atWidth: width))
        case .imgix:
            let separator = image.url.contains("?") ? "&" : "?"
            let url = image.url + separator + "w=\(target)"
            return Thumbnail(url: url, width: target, height: height(of: image, atWidth: target))
        case .fixed(let smallURL, let smallWidth):
            if let smallURL, smallWidth.map({ $0 >= requested }) ?? true {
                return Thumbnail(url: smallURL, width: target, height: height(of: image, atWidth: target))
            }
            return Thumbnail(url: image.url, width: target, height: height(of: image, atWidth: target))
        case .bundled:
            return Thumbnail(url: image.url, width: target, height: height(of: image, atWidth: target))
        }
    }

    /// The full-size image URL by the host's rules (`=s0` on Google's host).
    package static func fullImageURL(for image: ImageReference) -> String {
        switch image.sizing {
        case .googleImageHost: googleBase(image.url) + "=s0"
        case .iiif, .imgix, .fixed, .bundled: image.url
        }
    }

    /// The image URL without its `=s0` / `=w400` / `=h300-c` suffix.
    static func googleBase(_ url: String) -> String {
        guard let equals = url.lastIndex(of: "=") else { return url }
        let suffix = url[url.index(after: equals)...]
        guard let first = suffix.first, "swh".contains(first),
            suffix.dropFirst().first?.isNumber == true,
            !suffix.contains("/"), !suffix.contains("?"), !suffix.contains("&")
        else { return url }
        return String(url[..<equals])
    }

    /// Height at a width, keeping the original's aspect; square when the source gives no size.
    private static func height(of image: ImageReference, atWidth width: Int) -> Int {
        guard let originalWidth = image.width, let originalHeight = image.height, originalWidth > 0, originalHeight > 0
        else { return width }
        // Sizes come from the API: a height near Int.max or a width of 1 must not overflow, and no thumbnail is
        // drawn taller than 100 times its width.
        let height = (Double(originalHeight) * Double(width) / Double(originalWidth)).rounded()
        return Int(min(max(height, 1), Double(width) * 100))
    }
}
