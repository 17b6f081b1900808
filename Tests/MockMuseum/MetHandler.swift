import Foundation

/// A generated collection in The Met API's shape: an id list with gaps and dead ids, works in copyright with
/// empty image fields, and bot protection that answers some requests with an HTML 403 page.
package struct MetCollection: Sendable {
    package var count: Int
    /// Every `missingEvery`-th listed id answers 404 (0: none).
    package var missingEvery = 17
    /// Objects (by number) whose first request gets the bot protection's HTML 403 challenge page.
    package var throttledOnce: Set<Int> = []
    /// Objects (by number) whose first request gets a 200 with a non-JSON body.
    package var garbledOnce: Set<Int> = []
    /// How the collection changes between harvests (`MockFaults.museumGeneration` says how many happened):
    /// revised objects get a new title and `metadataDate`, deleted ones answer 404 and leave every list.
    package var generations: [ChangeGeneration] = []
    /// Objects (by number) that answer 404 before the first change, then resolve with their old `metadataDate`.
    package var missingAtFirst: Set<Int> = []
    /// Objects (by number) listed as changed (`metadataDate`) but not in the list of every id, as a server whose
    /// two lists disagree would.
    package var changedButUnlisted: Set<Int> = []
    /// From this generation on, the list of every id names only its first eight, though it counts them all (an
    /// answer cut short that is still valid JSON).
    package var listCutShortFrom: Int?

    package init(count: Int, missingEvery: Int = 17, throttledOnce: Set<Int> = [], garbledOnce: Set<Int> = []) {
        self.count = count
        self.missingEvery = missingEvery
        self.throttledOnce = throttledOnce
        self.garbledOnce = garbledOnce
    }

    /// The object id of number `number`: ascending with gaps, as the real list has.
    package static func id(_ number: Int) -> Int { 436_000 + number * 3 }

    package func isMissing(_ number: Int) -> Bool {
        missingEvery > 0 && number % missingEvery == missingEvery - 1
    }

    /// Works in copyright: `primaryImage` and `primaryImageSmall` are `""`, one additional image remains.
    package static func isInCopyright(_ number: Int) -> Bool { number % 6 == 5 }

    /// The department id of object `number` (1, 3 or 11).
    package static func department(_ number: Int) -> Int { [1, 3, 11][number % 3] }

    /// The object numbers of `generation`, with the generation that last changed each (deleted ones left out).
    func numbers(generation: Int) -> [(number: Int, changed: Int)] {
        var changed: [Int: Int] = [:]
        var deleted: Set<Int> = []
        var next = count
        for (offset, change) in generations.prefix(generation).enumerated() {
            for number in change.revised { changed[number] = offset + 1 }
            for number in change.deleted { deleted.insert(number) }
            for number in next..<(next + change.added) { changed[number] = offset + 1 }
            next += change.added
        }
        return (0..<next).filter { !deleted.contains($0) }.map { ($0, changed[$0] ?? 0) }
    }

    /// The server's `Date` in generation `generation`: a day later each time, at 10:00 UTC.
    static func httpDate(generation: Int) -> String {
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        return "\(weekdays[generation % 7]), \(22 + generation) Nov 2026 10:00:00 GMT"
    }

    /// `metadataDate` of objects changed in `generation` (0: the bulk load).
    static func metadataDate(generation: Int) -> String {
        generation == 0 ? "2024-05-01T04:53:34.123Z" : "2026-11-\(21 + generation)T18:30:00.000Z"
    }
}

struct MetHandler: MockHandler {
    let collection: MetCollection
    let state: MockMuseumState

    func handle(_ request: MockRequest) async throws -> MockResponse {
        await state.record(request)
        let query = MockHTTP.formQuery(request.rawQuery)
        let prefix = "/public/collection"
        guard request.path.hasPrefix(prefix) else { return Self.notFound() }
        let path = String(request.path.dropFirst(prefix.count))
        let generation = await state.faults.museumGeneration
        let versions = collection.numbers(generation: generation)
        let changedIn = Dictionary(uniqueKeysWithValues: versions.map { ($0.number, $0.changed) })
        let numbers = versions.map(\.number)
        let date = ["Date": MetCollection.httpDate(generation: generation)]
        switch path {
        case "/v1/departments":
            return Self.json(200, ["departments": [["departmentId": 11, "displayName": "European Paintings"]]], date)
        case "/v1/objects":
            var listed = numbers
            if let since = query["metadataDate"] {
                listed = listed.filter {
                    MetCollection.metadataDate(generation: changedIn[$0] ?? 0).prefix(10) >= since
                        || collection.changedButUnlisted.contains($0)
                }
            } else {
                listed.removeAll { collection.changedButUnlisted.contains($0) }
            }
            if let departments = query["departmentIds"] {
                let wanted = Set(departments.split(separator: "|").compactMap { Int($0) })
                listed = listed.filter { wanted.contains(MetCollection.department($0)) }
            }
            let total = listed.count
            if let from = collection.listCutShortFrom, generation >= from, query["metadataDate"] == nil {
                listed = Array(listed.prefix(8))
            }
            return Self.json(200, ["total": total, "objectIDs": listed.map(MetCollection.id)], date)
        case "/v1/search":
            return MockResponse(status: 410, body: Data("Gone".utf8))
        case "/v1.1/search":
            let text = (query["q"] ?? "").lowercased()
            let matches = numbers.filter { number in
                let object = SyntheticCollection.object(number)
                if query["artistOrCulture"] == "true" { return object.maker?.lowercased() == text }
                return object.title.lowercased().contains(text)
            }
            guard !matches.isEmpty else { return Self.json(200, ["total": 0, "objectIDs": NSNull()]) }
            let offset = query["offset"].flatMap { Int($0) } ?? 0
            let limit = min(query["limit"].flatMap { Int($0) } ?? 100, 500)
            let window = matches.prefix(10_000)
            let page = window.dropFirst(offset).prefix(limit)
            return Self.json(200, ["total": matches.count, "objectIDs": page.map(MetCollection.id)])
        default:
            guard path.hasPrefix("/v1/objects/"), let id = Int(path.dropFirst("/v1/objects/".count)),
                (id - 436_000) % 3 == 0, let revision = changedIn[(id - 436_000) / 3]
            else { return Self.notFound() }
            let number = (id - 436_000) / 3
            if collection.throttledOnce.contains(number), await state.count("403-\(number)") == 0 {
                return MockResponse(
                    status: 403, headers: ["Content-Type": "text/html"],
                    body: Data("<html><head><script>/* Incapsula challenge */</script></head><body></body></html>".utf8)
                )
            }
            if collection.garbledOnce.contains(number), await state.count("garbled-\(number)") == 0 {
                return MockResponse(
                    status: 200, headers: ["Content-Type": "text/html"], body: Data("Hello World".utf8))
            }
            if collection.isMissing(number) || (generation == 0 && collection.missingAtFirst.contains(number)) {
                return Self.notFound()
            }
            return Self.json(200, Self.object(number, revision: revision))
        }
    }

    static func object(_ number: Int, revision: Int = 0) -> [String: Any] {
        var object = SyntheticCollection.object(number)
        if revision > 0 { object.title += " (revision \(revision))" }
        let id = MetCollection.id(number)
        let file = "DT\(id).jpg"
        let copyrighted = MetCollection.isInCopyright(number)
        let hasImage = object.hasImage
        return [
            "objectID": id, "isHighlight": false, "accessionNumber": "1993.\(number)", "accessionYear": "1993",
            "isPublicDomain": !copyrighted,
            "primaryImage": hasImage && !copyrighted
                ? "https://images.metmuseum.org/CRDImages/ep/original/\(file)" : "",
            "primaryImageSmall": hasImage && !copyrighted
                ? "https://images.metmuseum.org/CRDImages/ep/web-large/\(file)" : "",
            "additionalImages": hasImage && copyrighted
                ? ["https://images.metmuseum.org/CRDImages/ep/original/LC-\(file)"] : [],
            "constituents": object.maker.map { [["constituentID": 161_800, "role": "Artist", "name": $0]] } as Any?
                ?? NSNull(),
            "department": "European Paintings", "objectName": "Painting", "title": object.title, "culture": "",
            "artistRole": object.maker == nil ? "" : "Artist", "artistDisplayName": object.maker ?? "",
            "artistAlphaSort": object.maker ?? "", "objectDate": object.date,
            "objectBeginDate": Int(object.date) ?? 0, "objectEndDate": Int(object.date) ?? 0,
            "medium": "Oil on canvas", "tags": NSNull(), "measurements": NSNull(),
            "objectURL": "https://www.metmuseum.org/art/collection/search/\(id)",
            "metadataDate": MetCollection.metadataDate(generation: revision),
            "repository": "Metropolitan Museum of Art, New York, NY",
            "GalleryNumber": "",
        ]
    }

    static func notFound() -> MockResponse {
        json(404, ["message": "ObjectID not found"])
    }

    static func json(_ status: Int, _ object: Any, _ headers: [String: String] = [:]) -> MockResponse {
        MockResponse(
            status: status,
            headers: headers.merging(["Content-Type": "application/json"]) { $1 },
            body: MockHTTP.json(object)
        )
    }
}
