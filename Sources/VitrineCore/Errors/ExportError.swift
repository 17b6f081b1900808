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
        case .template(let text), .output(let text), .configuration(let text), .store(let text): message = text
        }
        let line = (place + [message]).joined(separator: ": ")
        return line.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
