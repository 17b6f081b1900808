import Foundation

/// A generated collection in the Art Institute of Chicago API's shape.
package struct ArtInstituteCollection: Sendable {
    package var count: Int
    /// Imitates a record updated mid-harvest: the listing (ordered by last update) serves record 0 again on the
    /// last page and never serves record 1, while `pagination.total` still counts `count`.
    package var movingRecord = true
    /// The most results the search serves (`from + size`), as for anonymous callers.
    package var searchWindow = 1_000
    /// How `pagination` counts: truthfully, or as a hostile check found servers do.
    package var counting = Counting.truthful
    /// How many records each generation (`MockFaults.museumGeneration`) deletes at the top of the listing.
    package var deletedAtTop = 0

    package enum Counting: Sendable, CaseIterable {
        case truthful, totalNull, totalPagesNull, totalPagesZero, totalPagesTooLow
    }

    package init(count: Int, movingRecord: Bool = true) {
        self.count = count
        self.movingRecord = movingRecord
    }

    /// The ids served by the listing, in order.
    package var listing: [Int] {
        guard movingRecord, count > 2 else { return Array(0..<count) }
        return [0] + Array(2..<count) + [0]
    }

    /// The API id of object `number`.
    package static func id(_ number: Int) -> Int { 27_000 + number }

    /// The IIIF image id of object `number`; every fifth has none (`image_id: null`).
    package static func imageID(_ number: Int) -> String? {
        SyntheticCollection.object(number).hasImage ? String(format: "2d484387-2509-5e8e-2c43-%012d", number) : nil
    }
}

struct ArtInstituteHandler: MockHandler {
    let collection: ArtInstituteCollection
    let state: MockMuseumState

    func handle(_ request: MockRequest) async throws -> MockResponse {
        await state.record(request)
        let query = MockHTTP.formQuery(request.rawQuery)
        let page = query["page"].flatMap { Int($0) } ?? 1
        let limit = query["limit"].flatMap { Int($0) } ?? 12
        guard limit <= 100 else {
            return Self.json(
                403,
                [
                    "status": 403, "error": "Invalid limit",
                    "detail": "You have requested too many resources per page. Please set a smaller limit.",
                ])
        }
        let deleted = collection.deletedAtTop * (await state.faults.museumGeneration)
        let listing = Array(collection.listing.dropFirst(deleted))
        switch request.path {
        case "/api/v1/artworks":
            return respond(
                request.origin,
                listing, total: collection.count - deleted, page: page, limit: limit, fields: query["fields"],
                search: false)
        case "/api/v1/artworks/search":
            if (page - 1) * limit + limit > collection.searchWindow {
                return Self.json(
                    403,
                    [
                        "status": 403, "error": "Invalid number of results",
                        "detail": "You have requested too many results. Please refine your parameters.",
                    ])
            }
            let text = (query["q"] ?? "").lowercased()
            let artist = query["query[match_phrase][artist_title]"]
            let matches = listing.filter { number in
                let object = SyntheticCollection.object(number)
                if let artist { return object.maker == artist }
                return text.isEmpty || object.title.lowercased().contains(text)
            }
            return respond(
                request.origin,
                matches, total: matches.count, page: page, limit: limit, fields: query["fields"], search: true)
        default:
            return Self.json(
                404,
                [
                    "status": 404, "error": "Not found", "detail": "The item you requested cannot be found.",
                ])
        }
    }

    private func respond(
        _ origin: String, _ numbers: [Int], total: Int, page: Int, limit: Int, fields: String?, search: Bool
    )
        -> MockResponse
    {
        let start = min(max(0, (page - 1) * limit), numbers.count)
        let slice = numbers[start..<min(start + limit, numbers.count)]
        let wanted = fields.map { Set($0.split(separator: ",").map(String.init)) }
        let data = slice.map { number -> [String: Any] in
            let record = Self.record(number)
            guard let wanted else { return record }
            return record.filter { wanted.contains($0.key) }
        }
        let pages = (total + limit - 1) / limit
        var pagination: [String: Any] = [
            "total": total, "limit": limit, "offset": (page - 1) * limit, "total_pages": pages, "current_page": page,
        ]
        switch collection.counting {
        case .truthful: break
        case .totalNull: pagination["total"] = NSNull()
        case .totalPagesNull: pagination["total_pages"] = NSNull()
        case .totalPagesZero: pagination["total_pages"] = 0
        case .totalPagesTooLow: pagination["total_pages"] = max(1, pages - 2)
        }
        // `next_url` and `prev_url` are left out, not null, where they do not apply; search has neither.
        if !search && page < pages {
            pagination["next_url"] = "\(origin)/api/v1/artworks?page=\(page + 1)&limit=\(limit)"
        }
        if !search && page > 1 {
            pagination["prev_url"] = "\(origin)/api/v1/artworks?page=\(page - 1)&limit=\(limit)"
        }
        var body: [String: Any] = [
            "pagination": pagination, "data": data,
            "info": [
                "license_text": "CC0", "license_links": ["https://creativecommons.org/publicdomain/zero/1.0/"],
                "version": "1.14",
            ],
            "config": ["iiif_url": "https://www.artic.edu/iiif/2", "website_url": "http://www.artic.edu"],
        ]
        if search { body["preference"] = NSNull() }
        return Self.json(200, body)
    }

    static func record(_ number: Int) -> [String: Any] {
        let object = SyntheticCollection.object(number)
        let id = ArtInstituteCollection.id(number)
        var record: [String: Any] = [
            "id": id, "title": object.title, "date_display": "c. \(object.date)", "is_public_domain": true,
        ]
        switch (object.maker, number % 4) {
        case (let maker?, 0):
            // The title field is empty for some artworks; the display line still names the artist.
            record["artist_title"] = NSNull()
            record["artist_display"] = "\(maker)\nDutch, 1606–1669"
        case (let maker?, _):
            record["artist_title"] = maker
            record["artist_display"] = "\(maker)\nDutch, 1606–1669"
        case (nil, _):
            record["artist_title"] = NSNull()
            record["artist_display"] = ""
        }
        if let image = ArtInstituteCollection.imageID(number) {
            record["image_id"] = image
            record["thumbnail"] =
                [
                    "lqip":
                        "data:image/gif;base64,R0lGODlhBQAFAPQAAEZcaFFfdVtqbl9uc2BwdGV5fWd5gmt8gmx+hnJ/hXeEjHiIjHqJkHuNlIGMk4aRlYqYnYuanY2do5WkpZurq56vr6KxtKm1ua+5vQAAACH5BAAAAAAALAAAAAAFAAUAAAUVoJFEjLYsTQUAAgADdBo+0CmMRAgAOw==",
                    "width": 3000, "height": 2000, "alt_text": "A work of art.",
                ] as [String: Any]
        } else {
            record["image_id"] = NSNull()
            record["thumbnail"] = NSNull()
        }
        return record
    }

    static func json(_ status: Int, _ object: Any) -> MockResponse {
        MockResponse(
            status: status,
            headers: ["Content-Type": "application/json"],
            body: MockHTTP.json(object)
        )
    }
}
