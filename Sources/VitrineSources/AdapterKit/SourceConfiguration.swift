import Foundation
import VitrineCore

/// What the command line tells a source: where, with which key, and how to page.
package struct SourceConfiguration: Sendable, Equatable {
    package var source: SourceID
    /// `--base-url`; the source's default when `nil`.
    package var baseURL: String?
    /// `--key`; otherwise read from the source's environment variable.
    package var key: String?
    /// `--page-size`; the source's default when `nil`.
    package var pageSize: Int?
    /// `--language`: the culture or language the API answers in (`en`, `nl`).
    package var language: String
    /// `--query`: free-text search, where the API has one.
    package var query: String?
    /// `--artist`: only this maker's objects, where the API can filter by maker.
    package var artist: String?
    /// `--department`: a department id, where the API has departments.
    package var department: String?
    /// `--set`: an OAI-PMH set spec.
    package var set: String?
    /// `--from`: OAI-PMH records changed on or after this UTC date or time.
    package var from: String?
    /// `--until`: OAI-PMH records changed on or before this UTC date or time.
    package var until: String?
    /// `--metadata-prefix`: the OAI-PMH metadata format.
    package var metadataPrefix: String?
    /// `--start-page`: the first page to fetch, for page-numbered APIs.
    package var startPage: Int?

    package init(
        source: SourceID,
        baseURL: String? = nil,
        key: String? = nil,
        pageSize: Int? = nil,
        language: String = "en",
        query: String? = nil,
        artist: String? = nil,
        department: String? = nil,
        set: String? = nil,
        from: String? = nil,
        until: String? = nil,
        metadataPrefix: String? = nil,
        startPage: Int? = nil
    ) {
        self.source = source
        self.baseURL = baseURL
        self.key = key
        self.pageSize = pageSize
        self.language = language
        self.query = query
        self.artist = artist
        self.department = department
        self.set = set
        self.from = from
        self.until = until
        self.metadataPrefix = metadataPrefix
        self.startPage = startPage
    }

    /// The filter flags given, by name.
    package var givenFilters: [String] {
        let flags: [(String, Bool)] = [
            ("--query", query != nil), ("--artist", artist != nil), ("--department", department != nil),
            ("--set", set != nil), ("--from", from != nil), ("--until", until != nil),
            ("--metadata-prefix", metadataPrefix != nil), ("--start-page", startPage != nil),
            // English is what every source answers in when it has one language.
            ("--language", language.split(separator: "-").first?.lowercased() != "en"),
        ]
        return flags.filter(\.1).map(\.0)
    }

    /// Refuses filters the source cannot honour, naming them and what the source can do instead.
    package func refuseFilters(except supported: [String], source: String) throws(ExportError) {
        let refused = givenFilters.filter { !supported.contains($0) }
        guard !refused.isEmpty else { return }
        let can = supported.isEmpty ? "it takes no filters" : "it can filter by \(supported.joined(separator: ", "))"
        let flags = refused.joined(separator: ", ")
        throw ExportError(.configuration("the \(source) source cannot honour \(flags); \(can)"), source: source)
    }

    /// What every adapter reads, checked once against its descriptor: filters it cannot honour are refused,
    /// then the base URL (`--base-url`, else the descriptor's default), the key (`--key`, else the descriptor's
    /// environment variable), the page size and the first page are resolved.
    /// - parameter pageSizes: how `--page-size` is read for this API.
    /// - parameter firstPage: the number of the API's first page (0 or 1), for `--start-page`.
    package func settings(
        for descriptor: SourceDescriptor, pageSizes: PageSizing, firstPage: Int = 0, environment: [String: String] = [:]
    ) throws(ExportError) -> AdapterSettings {
        let name = descriptor.name
        try refuseFilters(except: descriptor.filters, source: name)
        let url = try baseURL(default: descriptor.defaultBaseURL, source: name)
        let size: Int
        switch pageSizes {
        case .upTo(let maximum):
            size = try pageSize(maximum: maximum, source: name)
        case .objectsPerPage(let standard):
            size = pageSize ?? standard
        case .chosenByServer(let reason):
            if pageSize != nil { throw ExportError(.configuration(reason), source: name) }
            size = 0
        }
        return AdapterSettings(
            baseURL: url,
            key: descriptor.keyVariable.flatMap { key(environment: environment, variable: $0) },
            pageSize: size,
            startPage: try startPage(first: firstPage, source: name)
        )
    }

    /// `--key`, else the source's environment variable (an empty variable counts as unset).
    package func key(environment: [String: String], variable: String) -> String? {
        key ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--page-size` within the API's limit; the limit itself when not given.
    package func pageSize(maximum: Int, source: String) throws(ExportError) -> Int {
        let size = pageSize ?? maximum
        guard (1...maximum).contains(size) else {
            throw ExportError(
                .configuration("--page-size must be 1…\(maximum) for this API, not \(size)"), source: source)
        }
        return size
    }

    /// `--start-page` for an API whose pages count from `first`; `first` when not given.
    package func startPage(first: Int, source: String) throws(ExportError) -> Int {
        let page = startPage ?? first
        guard page >= first, page <= 100_000_000 else {
            throw ExportError(.configuration("--start-page counts from \(first) for this API"), source: source)
        }
        return page
    }

    /// The base URL: `--base-url`, else the source's default; refused unless it is http(s).
    package func baseURL(default defaultURL: String, source: String) throws(ExportError) -> URL {
        let text = baseURL ?? defaultURL
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ExportError(.configuration("--base-url '\(text)' is not an http(s) URL"), source: source)
        }
        return url
    }
}

/// How `--page-size` is read for an API.
package enum PageSizing: Sendable {
    /// 1 up to the API's limit; the limit when not given.
    case upTo(Int)
    /// Objects of an id list that count as one page for `--max-pages`; `standard` when not given.
    case objectsPerPage(standard: Int)
    /// The server chooses (OAI-PMH): `--page-size` is refused with `reason`.
    case chosenByServer(reason: String)
}

/// The settings every adapter reads, resolved by `SourceConfiguration.settings(for:pageSizes:firstPage:environment:)`.
package struct AdapterSettings: Sendable, Equatable {
    package var baseURL: URL
    /// `--key`, else the descriptor's environment variable; `nil` when neither is set or the API takes no key.
    package var key: String?
    /// `--page-size`, checked against the API's limit (0 when the server chooses).
    package var pageSize: Int
    /// `--start-page`, else the API's first page.
    package var startPage: Int
}
