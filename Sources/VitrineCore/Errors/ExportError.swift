/// The one error a user sees: what failed, and where (source, page, URL with secrets hidden), in one line.
///
/// Context is stamped once, where it is known: the `HarvestWorker` adds source, page and URL to whatever a
/// source or the transport throws; displays add the file.
package struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        case harvest(HarvestFailure)
        /// A template is missing or does not parse.
        case template(String)
        /// The catalog could not be written.
        case output(String)
        /// The options do not make a valid export.
        case configuration(String)
        /// The collection store could not be opened, read or written.
        case store(String)
        /// Another export holds the output folder or the collection store.
        case busy(String)
    }

    package var reason: Reason
    /// The source's command-line name.
    package var source: String?
    /// The page as the API numbers it.
    package var page: String?
    /// The URL, already redacted.
    package var url: String?

    package init(_ reason: Reason, source: String? = nil, page: String? = nil, url: String? = nil) {
        self.reason = reason
        self.source = source
        self.page = page
        self.url = url
    }

    package var description: String {
        var place: [String] = []
        if let source { place.append(source) }
        var location = page.map { "page \($0)" } ?? ""
        if let url { location += location.isEmpty ? url : " (\(url))" }
        if !location.isEmpty { place.append(location) }
        let message: String
        switch reason {
        case .harvest(let failure): message = failure.message
        case .template(let text), .output(let text), .configuration(let text), .store(let text), .busy(let text):
            message = text
        }
        let line = (place + [message]).joined(separator: ": ")
        return line.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The process's exit status for this failure: 75 (`EX_TEMPFAIL`) when running again later may succeed (a
    /// server down, failing or throttling, a quota used up, another export busy), 64 (`EX_USAGE`) when the options
    /// do not make an export, 1 otherwise.
    package var exitStatus: Int32 {
        switch reason {
        case .harvest(let failure):
            if case .quotaExhausted = failure { return Self.temporaryFailure }
            return failure.isTransient ? Self.temporaryFailure : Self.failure
        case .busy: return Self.temporaryFailure
        case .configuration: return Self.usage
        case .template, .output, .store: return Self.failure
        }
    }

    package static let failure: Int32 = 1
    package static let usage: Int32 = 64
    package static let temporaryFailure: Int32 = 75
}
