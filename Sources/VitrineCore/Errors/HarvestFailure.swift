/// Why fetching or reading a page failed. The `HarvestWorker` adds source, page and URL (see `ExportError`).
package enum HarvestFailure: Error, Sendable, Equatable {
    /// The server answered with a status the source does not expect; the body's start is kept.
    case httpStatus(Int, String)
    /// The API refused the credentials; the text says which flag or variable to check.
    case keyRefused(String)
    /// The source needs a key and none was given.
    case missingKey(String)
    /// The API is gone; the text says where to go instead.
    case retired(String)
    /// The page's body could not be read at all.
    case undecodablePage(String)
    /// No response came: connection refused or dropped, DNS, TLS, timeout.
    case connection(String)
    /// Vitrine could not build the request (a bad base URL, say).
    case invalidRequest(String)
    /// An error the API reported in its own words (an OAI-PMH `<error>`, say).
    case api(String)

    /// One line for the user.
    package var message: String {
        switch self {
        case .httpStatus(let status, let body):
            body.isEmpty ? "the server answered HTTP \(status)" : "the server answered HTTP \(status): \(body)"
        case .keyRefused(let text), .missingKey(let text), .retired(let text), .api(let text):
            text
        case .undecodablePage(let text): "the page could not be read: \(text)"
        case .connection(let text): "no response: \(text)"
        case .invalidRequest(let text): "the request could not be built: \(text)"
        }
    }
}
