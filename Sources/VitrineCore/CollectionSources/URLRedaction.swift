/// Hides secrets in URLs before they reach a message, a log or a file.
package enum URLRedaction {
    /// Query parameters that carry credentials in the APIs Vitrine talks to.
    package static let secretParameters: Set<String> = [
        "key", "apikey", "api_key", "client_id", "access_key", "access_token", "token", "secret",
    ]

    /// The URL with the value of every secret query parameter replaced by `***`.
    package static func redact(_ url: String) -> String {
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
}
