/// What the published site calls itself and where it lives (`--site-title`, `--site-description`, `--site-url`,
/// `--site-logo`). Without a title the catalog is named after the repository or the source's institution
/// (`Rijksmuseum collection`), never after a host or a source's key.
package struct SiteIdentity: Sendable, Equatable {
    package var title: String?
    package var description: String?
    /// The site's public address, ending in `/` (`https://museum.example/collection/`): canonical links, the
    /// sitemap, `robots.txt` and share previews are made only when it is known.
    package var url: String?
    /// A picture file the site shows in its masthead, copied into `assets/`.
    package var logo: String?

    package init(title: String? = nil, description: String? = nil, url: String? = nil, logo: String? = nil) {
        self.title = title
        self.description = description
        self.url = url
        self.logo = logo
    }

    /// `https://museum.example/collection` → `https://museum.example/collection/`; `nil` for what
    /// `siteURLProblem` refuses.
    package static func siteURL(_ text: String) -> String? {
        guard case .success(let address) = checkedSiteURL(text) else { return nil }
        return address
    }

    /// Why `text` is not a site's address, in words for `--site-url`; `nil` when it is one.
    package static func siteURLProblem(_ text: String) -> String? {
        guard case .failure(let problem) = checkedSiteURL(text) else { return nil }
        return problem.reason
    }

    package struct SiteURLProblem: Error {
        package let reason: String
    }

    /// A folder's absolute http(s) address: a host name in ASCII (an international name in its `xn--` form) or an
    /// IP address, a port of 1–65535, a path of URL characters, and no user, query or fragment. Scheme and host
    /// are lower-cased and the path ends in `/`.
    private static func checkedSiteURL(_ text: String) -> Result<String, SiteURLProblem> {
        func problem(_ reason: String) -> Result<String, SiteURLProblem> { .failure(SiteURLProblem(reason: reason)) }
        let trimmed = text.trimmingASCIIWhitespace()
        guard let separator = trimmed.firstRange(of: "://"),
            ["http", "https"].contains(trimmed[..<separator.lowerBound].lowercased())
        else { return problem("it must start with https:// (or http://), such as https://museum.example/collection/") }
        let scheme = trimmed[..<separator.lowerBound].lowercased()
        let rest = trimmed[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = rest[authority.endIndex...]
        if path.contains("?") || path.contains("#") {
            return problem("a site's address has no query (?) or fragment (#): give the folder the site is in")
        }
        if authority.contains("@") { return problem("a site's address has no user name (@)") }
        var host = Substring(authority)
        var port: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return problem("\(host) is not an IP address")
            }
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return problem("\(authority) is not a host and port") }
                port = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        if host.isEmpty { return problem("the address names no host") }
        if !host.hasPrefix("[") {
            guard host.allSatisfy(\.isASCII) else {
                return problem(
                    "write the host \(host) in its ASCII form (an international name as xn--…, as a browser's address "
                        + "bar shows it when copied)")
            }
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            let valid =
                host.utf8.count <= 253
                && labels.allSatisfy { label in
                    (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                        && label.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "-") && $0.isASCII }
                }
            guard valid else { return problem("\(host) is not a host name") }
        }
        if let port {
            guard let number = Int(port), port.allSatisfy(\.isASCII), (1...65_535).contains(number) else {
                return problem("the port must be a number from 1 to 65535")
            }
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/%")
        if let bad = path.first(where: { !allowed.contains($0) }) {
            return problem(
                "“\(bad)” cannot stand in an address as it is: percent-encode it "
                    + "(a space is %20)")
        }
        var index = path.startIndex
        while let percent = path[index...].firstIndex(of: "%") {
            let digits = path[path.index(after: percent)...].prefix(2)
            guard digits.count == 2, digits.allSatisfy(\.isHexDigit) else {
                return problem("“%” must start an escape of two hex digits (%20)")
            }
            index = digits.endIndex
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.dropLast().contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
            || [".", ".."].contains(segments.last ?? "")
        {
            return problem("a site's address has no empty, . or .. folders: give the folder as a browser shows it")
        }
        if !path.isEmpty, !path.hasSuffix("/"), let last = path.split(separator: "/").last, last.contains(".") {
            return problem(
                "it names a file (\(last)): give the address of the folder the site is in (a folder whose name holds "
                    + "a dot ends in /)")
        }
        let address = scheme + "://" + authority.lowercased() + path
        return .success(address.hasSuffix("/") ? address : address + "/")
    }

    /// What in an SVG logo would run when the file is opened on its own, at the site's address (a script, an event
    /// handler, a `javascript:` link, an embedded frame or plug-in), as found; `nil` when there is none.
    package static func activeContent(inSVG text: String) -> String? {
        let lowered = numericReferencesDecoded(text.lowercased())
        // An element by any prefix (`<svg:script>`, `<h:object>`), and a style sheet that can transform the file.
        if let element = lowered.firstMatch(of: /<([a-z0-9_.-]+:)?(script|iframe|embed|object)\b/) {
            return "<" + element.output.2
        }
        for marker in ["javascript:", "<?xml-stylesheet"] where lowered.contains(marker) {
            return marker
        }
        if let handler = lowered.firstMatch(of: /[\s"'\/]on[a-z]+\s*=\s*["']/) {
            return String(handler.output.dropFirst().prefix { $0 != "=" && !$0.isWhitespace })
        }
        return nil
    }

    /// `&#106;` and `&#x6a;` as the characters they stand for, so that an attribute cannot spell a scheme with them.
    private static func numericReferencesDecoded(_ text: String) -> String {
        guard text.contains("&#") else { return text }
        return text.replacing(/&#(x[0-9a-f]+|[0-9]+);?/) { match in
            let digits = match.output.1
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? ""
        }
    }

    /// The picture formats a browser shows as a logo, by file extension.
    package static let logoExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "avif"]
}
