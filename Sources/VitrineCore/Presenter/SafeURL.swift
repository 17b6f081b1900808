import Foundation

/// Only `http` and `https` URLs reach a catalog: a `javascript:` or `data:` URL from an API is dropped.
package enum SafeURL {
    /// The URL if it is a well-formed `http(s)` URL with a host, else the empty string.
    package static func filter(_ candidate: String?) -> String {
        guard let candidate else { return "" }
        let trimmed = candidate.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty,
            !trimmed.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
            let components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return "" }
        return trimmed
    }
}
