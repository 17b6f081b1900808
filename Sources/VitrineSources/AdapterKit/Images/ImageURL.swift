import VitrineCore

/// Recognises how an image URL can be resized, from the URL alone: a IIIF Image API URL
/// (`{service}/full/{size}/{rotation}/{quality}.{format}`, Micrio's `https://iiif.micr.io/{id}/…` among them),
/// Google's image host (`=s0` suffixes), or a fixed file.
///
/// Read from the URL's bytes (see `WebAddress`), not through `URLComponents` or `Character`s: it runs several
/// times for every record a harvest reads, and those would cost a harvest more CPU than its XML parsing.
package enum ImageURL {
    /// File extensions that mark a link as an image.
    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "tif", "tiff", "jp2"]

    /// An image reference for `url`, or `nil` when it is not an http(s) URL.
    /// - parameter service: a IIIF service URL the source names separately (EDM's `svcs:has_service`).
    package static func reference(_ url: String, service: String? = nil) -> ImageReference? {
        guard WebURL.isValid(url) else { return nil }
        // A IIIF service's description (`…/info.json`, with a query or not) is no picture: the service's whole
        // image is.
        let path = url.prefix { $0 != "?" && $0 != "#" }
        if path.lowercased().hasSuffix("/info.json"), let described = trimmedService(String(path)) {
            return ImageReference(
                url: "\(described)/full/max/0/default.jpg", sizing: .iiif(service: described, cachedWidths: []))
        }
        return WebAddress.read(url) { address in
            if let service = service.flatMap(trimmedService) ?? address?.iiifService.flatMap(trimmedService) {
                return ImageReference(url: url, sizing: .iiif(service: service, cachedWidths: []))
            }
            if address?.isOnGoogleImageHost == true { return ImageReference(url: url, sizing: .googleImageHost) }
            return ImageReference(url: url, sizing: .fixed(smallURL: nil, smallWidth: nil))
        }
    }

    /// Whether `url` looks like an image: a IIIF image or service, Google's image host, or an image file.
    package static func isImage(_ url: String) -> Bool {
        guard WebURL.isValid(url) else { return false }
        return WebAddress.read(url) { address in
            guard let address else { return false }
            if address.iiifService != nil || address.isOnGoogleImageHost || address.hostIs("iiif.micr.io")
                || address.contains(caseInsensitive: "/iiif/")
            {
                return true
            }
            return address.fileExtension.map(imageExtensions.contains) ?? false
        }
    }

    private static func trimmedService(_ service: String) -> String? {
        var text = service
        if text.lowercased().hasSuffix("/info.json") { text.removeLast("/info.json".count) }
        while text.hasSuffix("/") { text.removeLast() }
        return WebURL.isValid(text) ? text : nil
    }
}

/// The parts of a URL that passed `WebURL.isValid` (an `http` or `https` URL in printable ASCII), as offsets in
/// its UTF-8 bytes, split as RFC 3986 does. Only valid inside `read`'s closure. Not made for a URL with a
/// character RFC 3986 does not allow (`"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`; a space is ruled out
/// already) or a port that is not a number: `URLComponents` refuses those, and so does this.
struct WebAddress {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// `http://` or `https://`, as written.
    private let scheme: Range<Int>
    /// The host and port as written, without user information.
    private let authority: Range<Int>
    private let host: Range<Int>
    /// The path as written (percent-encoded) up to the query or fragment: empty, or starting with `/`.
    private let path: Range<Int>

    /// Calls `body` with the parts of `url`, or with `nil` when it is not one `WebAddress` is made for.
    static func read<Result>(_ url: String, _ body: (WebAddress?) -> Result) -> Result {
        var url = url
        return url.withUTF8 { body(WebAddress($0)) }
    }

    private init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.allSatisfy(Self.isAllowed), let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            colon + 3 <= bytes.count
        else { return nil }
        self.bytes = bytes
        let start = colon + 3  // after `://`
        scheme = 0..<start
        let authorityEnd = bytes[start...].firstIndex { Self.isOneOf($0, "/?#") } ?? bytes.count
        let authorityStart = bytes[start..<authorityEnd].lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? start
        authority = authorityStart..<authorityEnd
        // The port follows the last colon outside an IPv6 address's brackets.
        var hostEnd = authorityEnd
        if let portColon = bytes[authority].lastIndex(of: UInt8(ascii: ":")),
            !bytes[portColon..<authorityEnd].contains(UInt8(ascii: "]"))
        {
            guard bytes[(portColon + 1)..<authorityEnd].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            hostEnd = portColon
        }
        host = authorityStart..<hostEnd
        let pathEnd = bytes[authorityEnd...].firstIndex { Self.isOneOf($0, "?#") } ?? bytes.count
        path = authorityEnd..<pathEnd
    }

    /// The IIIF service, untrimmed: `{scheme}://{host}:{port}{path}` before `/full/{size}/{rotation}/{file}` at the
    /// path's end (at least one segment before it, a dot in the file, a number for the rotation, `!` allowed),
    /// or `https://iiif.micr.io/{id}` for a bare Micrio id.
    var iiifService: String? {
        // The last five slashes, latest first: the segments after the last four are the region (`full`), size,
        // rotation and file. (Version 2's `full/full/0/default.jpg` has a second `full`: the size.)
        var slashes: [Int] = []
        for index in path.reversed() where bytes[index] == UInt8(ascii: "/") {
            slashes.append(index)
            if slashes.count == 5 { break }
        }
        if slashes.count == 5 {
            let file = (slashes[0] + 1)..<path.upperBound
            let rotation = (slashes[1] + 1)..<slashes[0]
            let full = (slashes[3] + 1)..<slashes[2]
            var rotationText = Substring(text(rotation))
            while rotationText.first == "!" { rotationText.removeFirst() }
            while rotationText.last == "!" { rotationText.removeLast() }
            if equals(full, "full"), bytes[file].contains(UInt8(ascii: ".")), Double(rotationText) != nil {
                return text(scheme) + text(authority) + text(path.lowerBound..<slashes[3])
            }
        }
        if hostIs("iiif.micr.io"), slashes.count == 1, slashes[0] == path.lowerBound, path.count > 1 {
            return "https://iiif.micr.io/" + text((path.lowerBound + 1)..<path.upperBound)
        }
        return nil
    }

    var isOnGoogleImageHost: Bool {
        hostHasSuffix("googleusercontent.com") || hostHasSuffix("ggpht.com")
    }

    /// The last path segment's extension in lower case (`jpg` for `/a/B.JPG` and `/a/b.jpg/`), if it has one.
    var fileExtension: String? {
        var end = path.upperBound
        while end > path.lowerBound, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let segmentStart = bytes[path.lowerBound..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? end
        guard let dot = bytes[segmentStart..<end].lastIndex(of: UInt8(ascii: ".")), dot != segmentStart else {
            return nil
        }
        return String(decoding: bytes[(dot + 1)..<end].lazy.map(Self.lowercased), as: UTF8.self)
    }

    func hostIs(_ name: StaticString) -> Bool {
        host.count == name.utf8CodeUnitCount && hostHasSuffix(name)
    }

    func contains(caseInsensitive needle: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard needle.count <= bytes.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            needle.indices.allSatisfy { Self.lowercased(bytes[start + $0]) == needle[$0] }
        }
    }

    private func hostHasSuffix(_ suffix: StaticString) -> Bool {
        let suffix = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
        guard suffix.count <= host.count else { return false }
        let start = host.upperBound - suffix.count
        return suffix.indices.allSatisfy { Self.lowercased(bytes[start + $0]) == suffix[$0] }
    }

    private func equals(_ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount
            && (0..<range.count).allSatisfy { bytes[range.lowerBound + $0] == word.utf8Start[$0] }
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func isOneOf(_ byte: UInt8, _ set: StaticString) -> Bool {
        UnsafeBufferPointer(start: set.utf8Start, count: set.utf8CodeUnitCount).contains(byte)
    }

    /// RFC 3986's characters: unreserved, reserved and `%`.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !isOneOf(byte, "\"<>\\^`{|}")
    }
}
