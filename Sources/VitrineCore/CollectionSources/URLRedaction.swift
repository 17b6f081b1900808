import Foundation

/// Hides secrets in URLs before they reach a message, a log or a file.
package enum URLRedaction {
    /// Query parameters that carry credentials in the APIs Vitrine talks to.
    package static let secretParameters: Set<String> = [
        "key", "apikey", "api_key", "client_id", "access_key", "access_token", "token", "secret",
    ]

    /// The URL with the value of every secret query parameter, and any `user:password@`, replaced by `***`.
    /// Read from the URL's UTF-8 bytes, and the URL returned as it is when it holds no secret: the page cache
    /// redacts every request's URL to name its file.
    package static func redact(_ url: String) -> String {
        let url = redactUserInfo(url)
        let bytes = url.utf8
        guard let queryStart = bytes.firstIndex(of: UInt8(ascii: "?")) else { return url }
        let queryEnd = bytes[queryStart...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        // The values to hide: from after a secret parameter's name to the end of its pair.
        var secrets: [Range<String.Index>] = []
        var pairStart = bytes.index(after: queryStart)
        while pairStart <= queryEnd {
            let pairEnd = bytes[pairStart..<queryEnd].firstIndex(of: UInt8(ascii: "&")) ?? queryEnd
            let nameEnd = bytes[pairStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")) ?? pairEnd
            if bytes.distance(from: pairStart, to: nameEnd) <= longestSecretName,
                secretParameters.contains(url[pairStart..<nameEnd].lowercased())
            {
                secrets.append(nameEnd..<pairEnd)
            }
            guard pairEnd < queryEnd else { break }
            pairStart = bytes.index(after: pairEnd)
        }
        guard !secrets.isEmpty else { return url }
        var redacted = ""
        var copied = url.startIndex
        for secret in secrets {
            redacted += url[copied..<secret.lowerBound] + "=***"
            copied = secret.upperBound
        }
        return redacted + url[copied...]
    }

    private static let longestSecretName = secretParameters.map(\.utf8.count).max() ?? 0

    /// The secrets a request carries: the values of its secret query parameters (as sent and decoded), and the
    /// credentials of its `Authorization` header and of any header named for a key or token.
    package static func secrets(of request: SourceRequest) -> [String] {
        var secrets: [String] = []
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        for item in components?.percentEncodedQueryItems ?? [] where secretParameters.contains(item.name.lowercased()) {
            secrets += [item.value, item.value?.removingPercentEncoding].compactMap { $0 }
        }
        for (name, value) in request.headers {
            let lowered = name.lowercased()
            if lowered == "authorization" {
                secrets.append(String(value.split(separator: " ").last ?? ""))
            } else if ["key", "token", "secret"].contains(where: lowered.contains) {
                secrets.append(value)
            }
        }
        // Shorter ones would hide ordinary words of the server's answer.
        return Array(Set(secrets.filter { $0.utf8.count >= 4 }))
    }

    /// `https://user:pass@host/…` → `https://***@host/…`: credentials in `--base-url` never reach a message, a log
    /// or a cache file name.
    private static func redactUserInfo(_ url: String) -> String {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) else {
            return url
        }
        let authorityStart = bytes.index(colon, offsetBy: 3)
        let authorityEnd =
            bytes[authorityStart...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            } ?? bytes.endIndex
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return url }
        return String(url[..<authorityStart]) + "***" + String(url[at...])
    }
}
