import Foundation

/// Hides secrets in URLs before they reach a message, a log or a file.
package enum URLRedaction {
    /// Query parameters that carry credentials in the APIs Vitrine talks to.
    package static let secretParameters: Set<String> = [
        "key", "apikey", "api_key", "client_id", "access_key", "access_token", "token", "secret",
    ]

    /// The URL with the value of every secret query parameter, and any `user:password@`, replaced by `***`.
    package static func redact(_ url: String) -> String {
        let url = redactUserInfo(url)
        guard let queryStart = url.firstIndex(of: "?") else { return url }
        let fragmentStart = url[queryStart...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: queryStart)..<fragmentStart]
        let redacted = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            guard secretParameters.contains(name.lowercased()) else { return String(pair) }
            return "\(name)=***"
        }
        return String(url[...queryStart]) + redacted.joined(separator: "&") + String(url[fragmentStart...])
    }

    /// `https://user:pass@host/…` → `https://***@host/…`: credentials in `--base-url` never reach a message, a log
    /// or a cache file name.
    private static func redactUserInfo(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<authorityStart]) + "***" + String(url[at...])
    }
}
