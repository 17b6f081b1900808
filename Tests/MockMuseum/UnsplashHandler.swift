import Foundation

/// A generated photo feed in Unsplash's shape: bare JSON arrays, `Link` headers, rate-limit headers, a plain-text
/// 403 when the hourly quota is used up, 401 for a wrong key.
package struct UnsplashCollection: Sendable {
    package var count: Int
    /// The access key the API accepts.
    package var key = "demo-access-key"
    /// Requests allowed before `403 Rate Limit Exceeded` (`nil`: no limit).
    package var quota: Int?
    /// What pages past the end answer: nothing, as Unsplash does, or as a hostile check found servers do.
    package var pastTheEnd = PastTheEnd.empty

    package enum PastTheEnd: Sendable, CaseIterable {
        /// An empty list, no `next` link.
        case empty
        /// The last page again.
        case lastPageAgain
        /// The last page again, its photos in another order (ties in a search index).
        case lastPageReordered
        /// An empty list with a `next` link, and never a `last` link on any page.
        case endlessNextLink
    }

    package init(count: Int, key: String = "demo-access-key", quota: Int? = nil) {
        self.count = count
        self.key = key
        self.quota = quota
    }

    /// The photo id of number `number`.
    package static func id(_ number: Int) -> String { String(format: "Ph%05dxQ", number) }
}

struct UnsplashHandler: MockHandler {
    let collection: UnsplashCollection
    let state: MockMuseumState

    func handle(_ request: MockRequest) async throws -> MockResponse {
        await state.record(request)
        guard request.header("authorization") == "Client-ID \(collection.key)" else {
            return Self.json(401, ["errors": ["OAuth error: The access token is invalid"]], headers: [:])
        }
        let used = await state.count("requests")
        let limit = collection.quota ?? 5_000
        if let quota = collection.quota, used >= quota {
            return MockResponse(
                status: 403,
                headers: [
                    "Content-Type": "text/plain", "X-Ratelimit-Limit": "\(quota)",
                    "X-Ratelimit-Remaining": "0",
                ],
                body: Data("Rate Limit Exceeded".utf8))
        }
        let query = MockHTTP.formQuery(request.rawQuery)
        let page = max(1, query["page"].flatMap { Int($0) } ?? 1)
        let perPage = min(30, max(1, query["per_page"].flatMap { Int($0) } ?? 10))
        let numbers: [Int]
        let isSearch: Bool
        switch request.path {
        case "/photos":
            numbers = Array(0..<collection.count)
            isSearch = false
        case "/search/photos":
            let text = (query["query"] ?? "").lowercased()
            numbers = (0..<collection.count).filter { SyntheticCollection.object($0).title.lowercased().contains(text) }
            isSearch = true
        default:
            return Self.json(404, ["errors": ["Couldn't find that"]], headers: [:])
        }
        let last = max(1, (numbers.count + perPage - 1) / perPage)
        let repeats = collection.pastTheEnd == .lastPageAgain || collection.pastTheEnd == .lastPageReordered
        let served = repeats ? min(page, last) : page
        let start = min((served - 1) * perPage, numbers.count)
        var photos = numbers[start..<min(start + perPage, numbers.count)].map { Self.photo($0, origin: request.origin) }
        if collection.pastTheEnd == .lastPageReordered, page > last { photos.reverse() }
        let link = { (page: Int) in
            "<\(request.origin)\(request.path)?page=\(page)&per_page=\(perPage)>"
        }
        var links: [String] = []
        if page > 1 { links += ["\(link(1)); rel=\"first\"", "\(link(page - 1)); rel=\"prev\""] }
        if collection.pastTheEnd == .endlessNextLink {
            links += ["\(link(page + 1)); rel=\"next\""]
        } else if page < last {
            links += ["\(link(last)); rel=\"last\"", "\(link(page + 1)); rel=\"next\""]
        }
        var headers: [String: String] = [
            "X-Per-Page": "\(perPage)", "X-Total": "\(numbers.count)",
            "X-Ratelimit-Limit": "\(limit)",
            "X-Ratelimit-Remaining": "\(max(0, limit - used - 1))",
        ]
        if !links.isEmpty { headers["Link"] = links.joined(separator: ", ") }
        let body: Any = isSearch ? ["total": numbers.count, "total_pages": last, "results": photos] : photos
        return Self.json(200, body, headers: headers)
    }

    static func photo(_ number: Int, origin: String) -> [String: Any] {
        let object = SyntheticCollection.object(number)
        let id = UnsplashCollection.id(number)
        let raw =
            "https://images.unsplash.com/photo-1461988320302-\(number)?ixid=M3wxMjA3fDB8MXxhbGx8\(number)fHx8fHx8fHx8"
        let username = "user\(SyntheticCollection.makers.firstIndex(of: object.maker ?? "") ?? 99)"
        return [
            "id": id, "created_at": "2016-05-03T11:00:28-04:00", "updated_at": "2016-07-10T11:00:01-05:00",
            "width": 5245, "height": 3497, "color": "#60544D", "blur_hash": "LoC%a7IoIVxZ_NM|M{s:%hRjWAo0",
            "likes": 12, "liked_by_user": false,
            // Both nullable: the title falls back from description to alt_description.
            "description": number % 3 == 0 ? object.title : NSNull(),
            "alt_description": number % 3 == 1 ? object.title : NSNull(),
            "user": [
                "id": "pXhwzz1JtQU", "username": username, "name": object.maker ?? username,
                "links": ["html": "https://unsplash.com/@\(username)"],
            ] as [String: Any],
            "current_user_collections": [],
            "urls": [
                "raw": raw, "full": raw + "&fm=jpg&q=80", "regular": raw + "&w=1080&fit=max",
                "small": raw + "&w=400&fit=max", "thumb": raw + "&w=200&fit=max",
            ],
            "links": [
                "self": "\(origin)/photos/\(id)", "html": "https://unsplash.com/photos/\(id)",
                "download": "https://unsplash.com/photos/\(id)/download",
                "download_location": "\(origin)/photos/\(id)/download",
            ],
        ]
    }

    static func json(_ status: Int, _ object: Any, headers: [String: String]) -> MockResponse {
        var all = headers
        all["Content-Type"] = "application/json"
        return MockResponse(
            status: status, headers: all, body: MockHTTP.json(object))
    }
}
