import Foundation
import VitrineCore

/// Unsplash: `GET {base}/photos?page=…&per_page=…` (pages from 1, up to 30 a page), `/search/photos?query=…`
/// for `--query`, `/users/{username}/photos` for `--artist`; `Authorization: Client-ID {key}`. Pages follow the
/// `Link` header (`rel="last"` tells how many there are). Demo keys allow 50 requests an hour: when the quota is
/// used up the harvest stops saying when to run again.
package struct UnsplashSource: CollectionSource {
    package static let defaultBaseURL = "https://api.unsplash.com"
    package static let keyVariable = "UNSPLASH_ACCESS_KEY"
    package static let maximumPageSize = 30

    package static let descriptor = SourceDescriptor(
        name: SourceID.unsplash.rawValue,
        institution: "Unsplash",
        defaultBaseURL: defaultBaseURL,
        paging: "page numbers from 1, up to 30 a page, from the Link header; demo keys: 50 requests an hour",
        keyVariable: keyVariable,
        filters: ["--query", "--artist", "--start-page"],
        summary: "Unsplash's photos, sectioned by photographer (--artist takes a username)."
    )

    package let baseURL: URL
    package let key: String
    package let pageSize: Int
    package let query: String?
    package let username: String?
    package let startPage: Int
    package var descriptor: SourceDescriptor { Self.descriptor }

    package init(
        baseURL: URL, key: String, pageSize: Int = 30, query: String? = nil, username: String? = nil, startPage: Int = 1
    ) {
        self.baseURL = baseURL
        self.key = key
        self.pageSize = pageSize
        self.query = query
        self.username = username
        self.startPage = startPage
    }

    package init(_ configuration: SourceConfiguration, environment: [String: String]) throws(ExportError) {
        let name = Self.descriptor.name
        let settings = try configuration.settings(
            for: Self.descriptor, pageSizes: .upTo(Self.maximumPageSize), firstPage: 1, environment: environment)
        if configuration.query != nil && configuration.artist != nil {
            throw ExportError(.configuration("give --query or --artist, not both"), source: name)
        }
        guard let key = settings.key else {
            throw ExportError(
                .configuration("Unsplash needs an access key: pass --key or set \(Self.keyVariable)"),
                source: name)
        }
        self.init(
            baseURL: settings.baseURL, key: key, pageSize: settings.pageSize, query: configuration.query,
            username: configuration.artist, startPage: settings.startPage)
    }

    package var firstPage: PageCursor { .number(startPage) }

    package func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        let number = try page.pageNumber()
        var parameters: [(String, String)] = []
        let path: URL
        if let query {
            path = baseURL.appendingPathComponent("search/photos")
            parameters.append(("query", query))
        } else if let username {
            path = baseURL.appendingPathComponent("users").appendingPathComponent(username)
                .appendingPathComponent("photos")
        } else {
            path = baseURL.appendingPathComponent("photos")
        }
        parameters += [("page", String(number)), ("per_page", String(pageSize))]
        let url = try QueryString.url(path, adding: parameters)
        // The key travels in a header, never in the URL, so no log or cache key can hold it.
        return SourceRequest(
            url: url,
            headers: ["Authorization": "Client-ID \(key)", "Accept-Version": "v1", "Accept": "application/json"])
    }

    package func failure(for response: SourceResponse) -> HarvestFailure? {
        switch response.status {
        case 401:
            return .keyRefused(
                "Unsplash refused the access key (HTTP 401: \(Self.errors(in: response))); check --key or \(Self.keyVariable)"
            )
        // Only the hour's quota stops the export: a 403 "Rate Limit Exceeded", or any refusal with
        // X-Ratelimit-Remaining: 0. A 429 otherwise is throttling, retried after its Retry-After as elsewhere.
        case 403 where response.bodySnippet.localizedCaseInsensitiveContains("rate limit"):
            return .quotaExhausted(Self.quotaMessage(response))
        case 403 where Self.quotaIsSpent(response), 429 where Self.quotaIsSpent(response):
            return .quotaExhausted(Self.quotaMessage(response))
        case 404 where username != nil:
            return .httpStatus(404, "no Unsplash user '\(username ?? "")' (\(Self.errors(in: response)))")
        case 200..<300:
            // An error sent with 200: its own words, not "the page could not be read".
            guard response.firstSignificantByte == UInt8(ascii: "{"),
                let errors = (try? JSONDecoder().decode(UnsplashPayload.Errors.self, from: response.body))?.errors,
                !errors.isEmpty
            else { return nil }
            return .api("Unsplash answered with an error: \(errors.joined(separator: "; "))")
        default:
            return response.statusFailure
        }
    }

    package func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
        let photos: [Lenient<UnsplashPayload.Photo>]
        var total = response.headers["x-total"].flatMap { Int($0) }
        var pagesFromBody: Int?
        var notices: [String] = []
        if query != nil {
            let search = try response.decodeJSON(UnsplashPayload.SearchResult.self, page: page, notices: &notices)
            photos = search.results
            total = search.total ?? total
            pagesFromBody = search.total_pages
        } else {
            photos = try response.decodeJSON([Lenient<UnsplashPayload.Photo>].self, page: page, notices: &notices)
        }
        // Unsplash puts advertisements in its feed (`sponsorship` set): they are no one's photographs here.
        let sponsored = photos.filter { (try? $0.result.get())?.sponsorship?.value != nil }.count
        let records = photos.filter { (try? $0.result.get())?.sponsorship?.value == nil }.map { photo in
            photo.outcome { .object($0.artObject) }
        }
        let links = LinkHeader.parse(response.headers["link"] ?? "")
        let lastPage = links["last"].flatMap(Self.pageNumber) ?? pagesFromBody
        // A `next` link on an empty page (past the end) is not followed: it may point on for ever.
        let continuation: Continuation
        if let lastPage, lastPage > 0 {
            continuation = .pageNumbers(lastPage: lastPage, limit: Int.max, pageSize: pageSize)
        } else if links["next"] != nil, !photos.isEmpty, case .number(let number) = page {
            continuation = .next(.number(number + 1))
        } else if photos.count >= pageSize, page == firstPage, case .number(let number) = page {
            // No count and no links: pages are asked for while they come back full.
            continuation = .pageNumbers(lastPage: number, limit: Int.max, pageSize: pageSize)
        } else {
            continuation = .end
        }
        if sponsored > 0 {
            notices.append(
                "page \(page): \(sponsored) sponsored \(sponsored == 1 ? "photo" : "photos") (advertisements in "
                    + "Unsplash's feed) left out")
        }
        if response.headers["x-ratelimit-remaining"] == "0" {
            notices.append(
                "Unsplash's hourly request quota is used up (X-Ratelimit-Remaining: 0): Unsplash refuses "
                    + "requests until about \(Self.inAnHour())")
        }
        var decoded = SourcePage(
            records: records, continuation: continuation, reportedTotal: startPage > 1 ? nil : total, notices: notices)
        // A page full of photos is full, advertisements left out or not: the next may hold more.
        if sponsored > 0 { decoded.listed = photos.count }
        return decoded
    }

    private static func pageNumber(_ link: String) -> Int? {
        URLComponents(string: link)?.queryItems?.first { $0.name == "page" }?.value.flatMap { Int($0) }
    }

    private static func errors(in response: SourceResponse) -> String {
        let decoded = try? JSONDecoder().decode(UnsplashPayload.Errors.self, from: response.body)
        return decoded?.errors?.joined(separator: "; ") ?? response.bodySnippet
    }

    /// Whether the response says the hour's requests are all used (`X-Ratelimit-Remaining: 0`).
    private static func quotaIsSpent(_ response: SourceResponse) -> Bool {
        response.headers["x-ratelimit-remaining"]?.trimmingCharacters(in: .whitespaces) == "0"
    }

    private static func quotaMessage(_ response: SourceResponse) -> String {
        let limit = response.headers["x-ratelimit-limit"].map { " of \($0) requests an hour" } ?? ""
        return "Unsplash's rate limit is used up (HTTP \(response.status): \(response.bodySnippet)\(limit)); "
            + "demo keys allow 50 requests an hour: run again after \(inAnHour())"
    }

    /// An hour from now, UTC, as `HH:mm UTC`.
    private static func inAnHour() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm 'UTC'"
        return formatter.string(from: Date().addingTimeInterval(3600))
    }
}

/// RFC 8288 `Link` headers: `<url>; rel="next", <url>; rel="last"` → `["next": url, "last": url]`.
package enum LinkHeader {
    package static func parse(_ header: String) -> [String: String] {
        var links: [String: String] = [:]
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let url = String(rest[rest.index(after: open)..<close])
            let paramsEnd = rest[close...].firstIndex(of: "<") ?? rest.endIndex
            let parameters = rest[rest.index(after: close)..<paramsEnd]
            if let relRange = parameters.range(of: "rel=") {
                let value = parameters[relRange.upperBound...].prefix { $0 != ";" && $0 != "," }
                for rel in value.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).split(separator: " ") {
                    links[String(rel)] = links[String(rel)] ?? url
                }
            }
            rest = rest[paramsEnd...]
        }
        return links
    }
}

extension SourceID {
    package static let unsplash: SourceID = "unsplash"
}

extension UnsplashSource {
    /// `--source unsplash`.
    package static let registration = SourceRegistration(descriptor: descriptor) {
        configuration, environment throws(ExportError) in
        try UnsplashSource(configuration, environment: environment)
    }
}
