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
        guard isWebURL(url) else { return nil }
        if let service = service.flatMap(trimmedService) ?? iiifService(of: url) {
            return ImageReference(url: url, sizing: .iiif(service: service, cachedWidths: []))
        }
        if isGoogleImageHost(url) { return ImageReference(url: url, sizing: .googleImageHost) }
        return ImageReference(url: url, sizing: .fixed(smallURL: nil, smallWidth: nil))
    }

    /// Whether `url` looks like an image: a IIIF image or service, Google's image host, or an image file.
    package static func isImage(_ url: String) -> Bool {
        guard isWebURL(url) else { return false }
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
        return isWebURL(text) ? text : nil
    }

    private static func isGoogleImageHost(_ url: String) -> Bool {
        guard let host = URL(string: url)?.host?.lowercased() else { return false }
        return host.hasSuffix("googleusercontent.com") || host.hasSuffix("ggpht.com")
    }

    /// Whether `text` is an absolute http(s) URL with a host. The common case (`https://host/path` in plain
    /// ASCII) is decided from the bytes; anything else is left to Foundation's parser.
    package static func isWebURL(_ text: String) -> Bool {
        var text = text
        if let plain = text.withUTF8(isPlainWebURL) { return plain }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
        return (scheme == "http" || scheme == "https") && url.host != nil
    }

    /// `true` for `http(s)://host…` made only of characters a URL may hold unescaped, `false` for any other
    /// scheme, `nil` when only a full parse can tell.
    private static func isPlainWebURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        // A URL's scheme runs to its first colon: anything but `http` or `https` (any case) first is another.
        var length = 0
        for expected in "https".utf8 {
            guard length < bytes.count, bytes[length] | 0x20 == expected else { break }
            length += 1
        }
        guard length >= 4 else { return false }
        let separator = UnsafeBufferPointer(rebasing: bytes[length...])
        guard separator.starts(with: "://".utf8) else { return nil }
        let rest = UnsafeBufferPointer(rebasing: separator[3...])
        guard let first = rest.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "?"),
            first != UInt8(ascii: "#"), first != UInt8(ascii: "@"), first != UInt8(ascii: ":"),
            first != UInt8(ascii: "[")
        else { return nil }
        for byte in rest {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "&"),
                UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
                UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "*"):
                continue
            default:
                return nil
            }
        }
        return true
    }
}
