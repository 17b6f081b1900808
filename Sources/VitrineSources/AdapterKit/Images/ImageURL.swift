import Foundation
import VitrineCore

/// Recognises how an image URL can be resized, from the URL alone: a IIIF Image API URL
/// (`{service}/full/{size}/{rotation}/{quality}.{format}`, Micrio's `https://iiif.micr.io/{id}/…` among them),
/// Google's image host (`=s0` suffixes), or a fixed file.
package enum ImageURL {
    /// File extensions that mark a link as an image.
    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "tif", "tiff", "jp2"]

    /// An image reference for `url`, or `nil` when it is not an http(s) URL.
    /// - parameter service: a IIIF service URL the source names separately (EDM's `svcs:has_service`).
    package static func reference(_ url: String, service: String? = nil) -> ImageReference? {
        guard WebURL.isValid(url) else { return nil }
        if let service = service.flatMap(trimmedService) ?? iiifService(of: url) {
            return ImageReference(url: url, sizing: .iiif(service: service, cachedWidths: []))
        }
        if isGoogleImageHost(url) { return ImageReference(url: url, sizing: .googleImageHost) }
        return ImageReference(url: url, sizing: .fixed(smallURL: nil, smallWidth: nil))
    }

    /// Whether `url` looks like an image: a IIIF image or service, Google's image host, or an image file.
    package static func isImage(_ url: String) -> Bool {
        guard WebURL.isValid(url) else { return false }
        if iiifService(of: url) != nil || isGoogleImageHost(url) { return true }
        if url.lowercased().contains("/iiif/") || URL(string: url)?.host?.lowercased() == "iiif.micr.io" { return true }
        let path = URL(string: url)?.path.lowercased() ?? ""
        return imageExtensions.contains((path as NSString).pathExtension)
    }

    /// The IIIF service of an image URL: everything before `/full/{size}/{rotation}/{quality}.{format}`, or a
    /// bare Micrio id URL.
    package static func iiifService(of url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased() else {
            return nil
        }
        let parts = components.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let full = parts.lastIndex(of: "full"), full > 1, parts.count - full == 4,
            parts[parts.count - 1].contains("."), let rotation = parts.dropLast().last,
            Double(rotation.trimmingCharacters(in: CharacterSet(charactersIn: "!"))) != nil
        {
            let servicePath = parts[..<full].joined(separator: "/")
            return trimmedService(
                "\(components.scheme ?? "https")://\(components.percentEncodedHost ?? host)"
                    + (components.port.map { ":\($0)" } ?? "") + servicePath)
        }
        if host == "iiif.micr.io", parts.count == 2, !parts[1].isEmpty {
            return "https://iiif.micr.io/\(parts[1])"
        }
        return nil
    }

    private static func trimmedService(_ service: String) -> String? {
        var text = service
        if text.hasSuffix("/info.json") { text.removeLast("/info.json".count) }
        while text.hasSuffix("/") { text.removeLast() }
        return WebURL.isValid(text) ? text : nil
    }

    private static func isGoogleImageHost(_ url: String) -> Bool {
        guard let host = URL(string: url)?.host?.lowercased() else { return false }
        return host.hasSuffix("googleusercontent.com") || host.hasSuffix("ggpht.com")
    }
}
