import Foundation
import VitrineCore

/// Builds query strings with every reserved character escaped. `URLComponents` leaves `+`, `/` and `?` as
/// they are in query values, and a server may read a `+` in an OAI-PMH token or a search text as a space.
package enum QueryString {
    /// RFC 3986's unreserved characters: the only ones left as they are.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    package static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `url` with `parameters` appended to any query it already has; fails naming the URL when it cannot hold a
    /// query (a base URL that is not a URL).
    package static func url(_ url: URL, adding parameters: [(String, String)]) throws(HarvestFailure) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .invalidRequest("bad base URL \(url.absoluteString)")
        }
        let added = parameters.map { "\(escape($0.0))=\(escape($0.1))" }
        let existing = components.percentEncodedQuery.map { [$0] } ?? []
        let query = (existing + added).joined(separator: "&")
        components.percentEncodedQuery = query.isEmpty ? nil : query
        guard let result = components.url else { throw .invalidRequest("bad base URL \(url.absoluteString)") }
        return result
    }

    /// `base` with one more path segment, escaped (an object id may hold `/`, `?` or `#`).
    package static func url(_ base: URL, appendingSegment segment: String) throws(HarvestFailure) -> URL {
        guard let url = URL(string: base.absoluteString + "/" + escape(segment)) else {
            throw .invalidRequest("bad base URL \(base.absoluteString)")
        }
        return url
    }
}
