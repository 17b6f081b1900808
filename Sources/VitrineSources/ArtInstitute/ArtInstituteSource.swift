import Foundation
import VitrineCore

/// The Art Institute of Chicago: `GET {base}/artworks?page=…&limit=…&fields=…` (pages from 1, up to 100 a
/// page), or `/artworks/search` for `--query` and `--artist`, whose window anonymous callers may not page past
/// (1,000 results).
///
/// The listing is ordered by last update, so a record can move between pages during a long harvest: repeats
/// are dropped by id, and the summary says when fewer distinct objects came than `pagination.total`.
package struct ArtInstituteSource: CollectionSource {
    package static let defaultBaseURL = "https://api.artic.edu/api/v1"
    package static let maximumPageSize = 100
    /// The widths the image server keeps in its cache, as the API docs recommend them.
    package static let cachedWidths = [200, 400, 600, 843]
    /// The most results the search endpoint serves anonymous callers (`from + size`).
    package static let searchWindow = 1_000
    /// Images are served from here when a response carries no `config.iiif_url`.
    package static let defaultIIIFURL = "https://www.artic.edu/iiif/2"

    package static let descriptor = SourceDescriptor(
        name: SourceID.aic.rawValue,
        institution: "Art Institute of Chicago",
        defaultBaseURL: defaultBaseURL,
        paging: "page numbers from 1, up to 100 a page; search: first 1,000 results only",
        keyVariable: nil,
        filters: ["--query", "--artist", "--start-page"],
        summary: "The Art Institute of Chicago's public API (about 130,000 artworks; IIIF images).",
        requestsPerSecond: 1,
        speculativePaging: true
    )

    package let baseURL: URL
    package let pageSize: Int
    package let query: String?
    package let artist: String?
    package let startPage: Int
    package var descriptor: SourceDescriptor { Self.descriptor }

    package init(baseURL: URL, pageSize: Int = 100, query: String? = nil, artist: String? = nil, startPage: Int = 1) {
        self.baseURL = baseURL
        self.pageSize = pageSize
        self.query = query
        self.artist = artist
        self.startPage = startPage
    }

    package init(_ configuration: SourceConfiguration) throws(ExportError) {
        let settings = try configuration.settings(
            for: Self.descriptor, pageSizes: .upTo(Self.maximumPageSize), firstPage: 1)
        self.init(
            baseURL: settings.baseURL, pageSize: settings.pageSize, query: configuration.query,
            artist: configuration.artist, startPage: settings.startPage)
    }

    private var isSearch: Bool { query != nil || artist != nil }

    package var firstPage: PageCursor { .number(startPage) }

    package func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        let number = try page.pageNumber()
        var parameters: [(String, String)] = []
        if let query { parameters.append(("q", query)) }
        if let artist { parameters.append(("query[match_phrase][artist_title]", artist)) }
        parameters += [
            ("page", String(number)), ("limit", String(pageSize)),
            ("fields", ArtInstitutePayload.fields.joined(separator: ",")),
        ]
        let path = baseURL.appendingPathComponent(isSearch ? "artworks/search" : "artworks")
        let url = try QueryString.url(path, adding: parameters)
        // The museum asks callers to name themselves in AIC-User-Agent; no Referer is ever sent.
        return SourceRequest(
            url: url,
            headers: [
                "Accept": "application/json",
                "AIC-User-Agent": "Vitrine/\(VitrineVersion.current) (museum collection exporter)",
            ]
        )
    }

    package func failure(for response: SourceResponse) -> HarvestFailure? {
        switch response.status {
        case 403 where isSearch:
            return .httpStatus(
                403,
                "the search API serves anonymous callers only the first \(NumberText.grouped(Self.searchWindow)) "
                    + "results; narrow --query, or leave it out to walk the whole listing")
        case 403:
            return .httpStatus(
                403, "the API refused the page (\(response.bodySnippet)); --page-size may be at most 100")
        default:
            return response.statusFailure
        }
    }

    package func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
        var notices: [String] = []
        let list = try response.decodeJSON(ArtInstitutePayload.List.self, page: page, notices: &notices)
        guard let data = list.data else { throw .undecodablePage("no data array") }
        let iiif = Self.trimmed(list.config?.iiif_url) ?? Self.defaultIIIFURL
        let website = Self.trimmed(list.config?.website_url).map(Self.secure) ?? "https://www.artic.edu"
        let records = data.map { record in
            record.outcome { .object($0.artObject(iiifURL: iiif, websiteURL: website)) }
        }
        let total = list.pagination?.total?.value.map { max(0, $0) }
        let number = if case .number(let number) = page { number } else { startPage }
        let stated = list.pagination?.limit?.value.flatMap { $0 > 0 ? $0 : nil }
        // A server that serves fewer than asked without saying so: its first page tells.
        let perPage = stated ?? (data.isEmpty ? pageSize : min(pageSize, data.count))
        // `total_pages` far too high (empty pages after the last) is cut to what `total` needs.
        let needed = total.map { $0 / perPage + ($0 % perPage == 0 ? 0 : 1) }
        let counted = list.pagination?.total_pages?.value.flatMap { $0 > 0 ? min($0, needed ?? $0) : nil }
        guard counted != nil || !data.isEmpty else {
            return SourcePage(records: records, continuation: .end, reportedTotal: startPage > 1 ? nil : total)
        }
        // A count that is missing or too low is not the end: pages are asked for while they come back full.
        let pages = max(counted ?? number, number)
        var limit = Int.max
        if isSearch {
            limit = Self.searchWindow / pageSize
            if let total, total > Self.searchWindow {
                notices.append(
                    "\(NumberText.grouped(total)) artworks match, but the search API serves anonymous callers "
                        + "only the first \(NumberText.grouped(Self.searchWindow)); narrow --query to see the rest"
                )
            }
        }
        return SourcePage(
            records: records,
            continuation: .pageNumbers(lastPage: pages, limit: limit, pageSize: perPage),
            // Pages before --start-page are not read, so the total would not be a fair comparison.
            reportedTotal: startPage > 1 ? nil : isSearch ? total.map { min($0, Self.searchWindow) } : total,
            notices: notices
        )
    }

    private static func trimmed(_ text: String?) -> String? {
        guard var text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The museum's `website_url` is `http://www.artic.edu`; its pages are served over https.
    private static func secure(_ url: String) -> String {
        url.hasPrefix("http://www.artic.edu") ? "https://" + url.dropFirst("http://".count) : url
    }
}

extension SourceID {
    package static let aic: SourceID = "aic"
}

extension ArtInstituteSource {
    /// `--source aic`.
    package static let registration = SourceRegistration(descriptor: descriptor) {
        configuration, _ throws(ExportError) in
        try ArtInstituteSource(configuration)
    }
}
