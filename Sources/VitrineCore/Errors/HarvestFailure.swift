/// Why fetching or reading a page failed. The `HarvestWorker` adds source, page and URL (see `ExportError`).
package enum HarvestFailure: Error, Sendable, Equatable {
    /// The server answered with a status the source does not expect; the body's start is kept.
    case httpStatus(Int, String)
    /// The API refused the credentials; the text says which flag or variable to check.
    case keyRefused(String)
    /// The API is gone; the text says where to go instead.
    case retired(String)
    /// The page's body could not be read at all.
    case undecodablePage(String)
    /// No response came: connection dropped, TLS, timeout.
    case connection(String)
    /// The server cannot be reached at all: the connection is refused, or the host name does not resolve. Asking
    /// again at once is worth one short retry (a server restarting), not minutes of them.
    case unreachable(String)
    /// A response came that asking again would only repeat: larger than the cap, a compressed body that does not
    /// decompress, a redirect loop. Not retried.
    case unusableResponse(String)
    /// Vitrine could not build the request (a bad base URL, say).
    case invalidRequest(String)
    /// An error the API reported in its own words (an OAI-PMH `<error>`, say).
    case api(String)
    /// The repository refused the dates a listing asked for (OAI-PMH `badArgument` to `from`/`until`).
    case datesRefused(String)
    /// The server asked us to slow down (429, a bot-protection page); worth retrying after a pause.
    /// `retryAfter` is the server's `Retry-After` in seconds, when it sent one.
    case throttled(String, retryAfter: Double?)
    /// The server failed for now (500, 502, 503, 504); worth retrying after a pause.
    case unavailable(Int, String, retryAfter: Double?)
    /// A quota is used up for longer than a retry can wait; the text says when to run again.
    case quotaExhausted(String)

    /// Whether trying the same request again later may succeed.
    package var isTransient: Bool {
        switch self {
        case .throttled, .unavailable, .connection, .unreachable: true
        default: false
        }
    }

    /// The same failure, saying that retrying did not help, and what may: waiting and a lower rate for a server
    /// that struggles; the address, for one that cannot be reached.
    package func givenUp(afterRetries retries: Int) -> HarvestFailure {
        let tried = "still failing after \(retries) \(retries == 1 ? "retry" : "retries")"
        if case .unreachable(let text) = self { return .unreachable("\(text) (\(tried))") }
        return annotated(" (\(tried); try again later or lower --rate)")
    }

    /// The same failure with `note` added to its text (for failures that carry text of their own).
    package func annotated(_ note: String) -> HarvestFailure {
        switch self {
        case .throttled(let text, let after): return .throttled(text + note, retryAfter: after)
        case .unavailable(let status, let body, let after): return .unavailable(status, body + note, retryAfter: after)
        case .connection(let text): return .connection(text + note)
        default: return self
        }
    }

    /// The pause the server asked for, in seconds.
    package var retryAfter: Double? {
        switch self {
        case .throttled(_, let seconds), .unavailable(_, _, let seconds): seconds
        default: nil
        }
    }

    /// One line for the user.
    package var message: String {
        switch self {
        case .httpStatus(let status, let body):
            body.isEmpty ? "the server answered HTTP \(status)" : "the server answered HTTP \(status): \(body)"
        case .keyRefused(let text), .retired(let text), .api(let text),
            .datesRefused(let text), .throttled(let text, _), .quotaExhausted(let text):
            text
        case .unavailable(let status, let body, _):
            body.isEmpty ? "the server answered HTTP \(status)" : "the server answered HTTP \(status): \(body)"
        case .undecodablePage(let text): "the page could not be read: \(text)"
        case .connection(let text): "no response: \(text)"
        case .unreachable(let text): text
        case .unusableResponse(let text): "the response cannot be used: \(text)"
        case .invalidRequest(let text): "the request could not be built: \(text)"
        }
    }
}
