import Foundation
import VitrineCore

/// The Metropolitan Museum of Art: the id list from `/v1/objects` (`departmentIds=1|3` for `--department`), or
/// from `/v1.1/search` for `--query` and `--artist` (pages of `offset`/`limit`, the first 10,000 matches only),
/// then `/v1/objects/{id}` for each id, `--concurrency` at a time under a rate ceiling.
///
/// The Met's bot protection answers bursts with HTML 403 pages: a 403 or a body that is not JSON is throttling,
/// retried after a pause. A 404 id (the list has ids that no longer resolve) is skipped and counted.
package struct MetSource: CollectionSource {
    package static let defaultBaseURL = "https://collectionapi.metmuseum.org/public/collection"
    /// The width of the image host's `web-large` renditions, roughly.
    package static let smallWidth = 600
    /// Ids per search page (the API allows up to 500).
    package static let searchPageSize = 500
    /// The search serves nothing past `offset + limit = 10 000`.
    package static let searchWindow = 10_000

    package static let descriptor = SourceDescriptor(
        name: SourceID.met.rawValue,
        institution: "The Metropolitan Museum of Art",
        defaultBaseURL: defaultBaseURL,
        paging: "one id list, then one request per object (search: first 10,000 matches only)",
        keyVariable: nil,
        filters: ["--query", "--artist", "--department"],
        summary: "The Met's collection API (about 490,000 objects; about 4 requests a second hold).",
        requestsPerSecond: 4
    )

    package let baseURL: URL
    package let query: String?
    package let artist: String?
    /// Department ids, pipe-separated (`1|3|9`).
    package let departments: String?
    /// Objects that count as one page for `--max-pages`.
    package let pageSize: Int
    /// Only the objects changed since this day (`metadataDate=YYYY-MM-DD`): an incremental run.
    package var changedSince: String?
    /// In an incremental run, the keys of the objects stored.
    package var stored: Set<String> = []
    package var descriptor: SourceDescriptor { Self.descriptor }

    package init(
        baseURL: URL, query: String? = nil, artist: String? = nil, departments: String? = nil, pageSize: Int = 100
    ) {
        self.baseURL = baseURL
        self.query = query
        self.artist = artist
        self.departments = departments
        self.pageSize = pageSize
    }

    package init(_ configuration: SourceConfiguration) throws(ExportError) {
        let name = Self.descriptor.name
        let settings = try configuration.settings(for: Self.descriptor, pageSizes: .objectsPerPage(standard: 100))
        if configuration.query != nil && configuration.artist != nil {
            throw ExportError(
                .configuration("The Met searches either free text or makers: give --query or --artist, not both"),
                source: name)
        }
        let departments = configuration.department.map {
            $0.split(whereSeparator: { $0 == "," || $0 == "|" || $0 == " " }).joined(separator: "|")
        }
        if let departments, departments.isEmpty || !departments.allSatisfy({ $0.isNumber || $0 == "|" }) {
            throw ExportError(
                .configuration("--department takes The Met's numeric department ids, e.g. 11 or 1,3,9"), source: name)
        }
        if let departments, departments.contains("|"), configuration.query != nil || configuration.artist != nil {
            throw ExportError(
                .configuration(
                    "The Met's search takes one department: give one --department id with --query or --artist, or "
                        + "leave those out to walk every department given"), source: name)
        }
        self.init(
            baseURL: settings.baseURL, query: configuration.query, artist: configuration.artist,
            departments: departments, pageSize: settings.pageSize)
    }

    private var searchText: String? { query ?? artist }

    /// The list of the ids changed since `changedSince`, after the list of every id.
    static let changesPage = "changes"

    /// The id list first: `/v1/objects` in one go, or the search's first page.
    package var firstPage: PageCursor { searchText == nil ? .token(nil) : .number(0) }

    package func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        let url: URL
        switch page {
        case .token(nil), .token(Self.changesPage):
            // A run of changes asks for every id first (`.token(nil)`), to find the removed ones, then for the
            // changed ones.
            let objects = baseURL.appendingPathComponent("v1/objects")
            var parameters: [(String, String)] = []
            if let changedSince, page == .token(Self.changesPage) { parameters.append(("metadataDate", changedSince)) }
            if let departments { parameters.append(("departmentIds", departments)) }
            url = try QueryString.url(objects, adding: parameters)
        case .number(let offset):
            guard let searchText else { throw .invalidRequest("The Met's object list is not paged") }
            var parameters = [("q", searchText)]
            if artist != nil { parameters.append(("artistOrCulture", "true")) }
            if let departments { parameters.append(("departmentId", departments)) }
            parameters += [
                ("hasImages", "true"), ("offset", String(offset)), ("limit", String(Self.searchPageSize)),
            ]
            url = try QueryString.url(baseURL.appendingPathComponent("v1.1/search"), adding: parameters)
        case .object(let id):
            url = try QueryString.url(baseURL.appendingPathComponent("v1/objects"), appendingSegment: id)
        case .token(.some):
            throw .invalidRequest("The Met's API has no resumption tokens")
        }
        return SourceRequest(url: url, headers: ["Accept": "application/json"])
    }

    package func failure(for response: SourceResponse) -> HarvestFailure? {
        switch response.status {
        case 403:
            return .throttled(
                "The Met's bot protection refused the request (HTTP 403); lower --concurrency or --rate",
                retryAfter: response.retryAfter())
        case 404 where response.looksLikeJSON:
            return nil  // An id that no longer resolves: skipped in `decode`.
        case 410:
            return .retired("The Met has retired this endpoint (HTTP 410 Gone); its search is now /v1.1/search")
        default:
            return response.statusFailure
        }
    }

    package func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
        guard response.looksLikeJSON else {
            // A challenge page or "Hello World" from the bot protection, sent with 200.
            throw .throttled(
                "The Met answered with a page that is not JSON (bot protection: \(response.bodySnippet.prefix(60)))",
                retryAfter: response.retryAfter())
        }
        switch page {
        case .object(let id):
            if response.status == 404 {
                // Listed as changed and gone since: the object was withdrawn.
                if changedSince != nil { return SourcePage(records: [.deleted(recordID: id)], continuation: .end) }
                let message = (try? response.decodeJSON(MetPayload.Message.self).message) ?? nil
                return SourcePage(
                    records: [.skipped(reason: "object \(id): \(message ?? "not found") (HTTP 404)", recordID: id)],
                    continuation: .end)
            }
            // One object a response: an unreadable one (no id, not an object) is skipped, the harvest goes on.
            let object: MetPayload.Object
            var notices: [String] = []
            do {
                object = try response.decodeJSON(MetPayload.Object.self, page: page, notices: &notices)
            } catch {
                // An answer cut short is asked for again; only an object that cannot be read is skipped.
                if case .connection = error { throw error }
                return SourcePage(
                    records: [.skipped(reason: "object \(id): \(error.message)", recordID: id)], continuation: .end)
            }
            // Another object than the one asked for would take that one's place in the catalog.
            guard object.objectID.value == id else {
                return SourcePage(
                    records: [
                        .skipped(
                            reason: "object \(id): the Met answered with object \(object.objectID.value)", recordID: id)
                    ],
                    continuation: .end)
            }
            return SourcePage(
                records: [.object(object.artObject)], continuation: .end,
                notices: notices)
        case .number(let offset):
            let list = try response.decodeJSON(MetPayload.IDList.self)
            let ids = (list.objectIDs?.value ?? []).compactMap { $0?.value }
            let total = list.total ?? ids.count
            let reachable = min(total, Self.searchWindow)
            // On from what this page held: a server that serves fewer than asked skips none; and a full page
            // leads on up to the window, whatever `total` says (a count too low is not the end).
            let nextOffset = offset + min(ids.count, Self.searchPageSize)
            let full = ids.count >= Self.searchPageSize && nextOffset < Self.searchWindow
            let next: PageCursor? = !ids.isEmpty && (nextOffset < reachable || full) ? .number(nextOffset) : nil
            var notices: [String] = []
            if offset == 0 && total > Self.searchWindow {
                notices.append(
                    "\(NumberText.grouped(total)) objects match, but The Met's search serves only the first "
                        + "\(NumberText.grouped(Self.searchWindow)); narrow --query or use --department")
            }
            return SourcePage(
                records: [],
                continuation: ids.isEmpty && next == nil ? .end : .objects(ids, next: next, pageSize: pageSize),
                reportedTotal: reachable, notices: notices)
        default:
            let list = try response.decodeJSON(MetPayload.IDList.self)
            let ids = (list.objectIDs?.value ?? []).compactMap { $0?.value }
            // The list is one answer: naming fewer objects than it counts, it was cut short, and a night would take
            // the objects it leaves out for deleted.
            let named = list.objectIDs?.value?.count ?? 0
            if let total = list.total, total > named {
                throw .unavailable(
                    response.status,
                    "The Met's list names \(named) \(named == 1 ? "object" : "objects") but counts \(total): "
                        + "an answer cut short", retryAfter: response.retryAfter())
            }
            // The list's `Date` is where the next incremental run asks from.
            if changedSince != nil, page == .token(nil) {
                if ids.isEmpty, !stored.isEmpty {
                    throw .unavailable(
                        response.status,
                        "The Met's list names no object, though \(stored.count) were harvested before: an answer cut "
                            + "short", retryAfter: response.retryAfter())
                }
                return SourcePage(
                    records: [],
                    continuation: .objects(
                        ids.filter { !stored.contains($0) }, next: .token(Self.changesPage), pageSize: pageSize),
                    serverTime: Self.serverDay(response), listedKeys: ids)
            }
            return SourcePage(
                records: [], continuation: ids.isEmpty ? .end : .objects(ids, next: nil, pageSize: pageSize),
                reportedTotal: list.total ?? ids.count, serverTime: Self.serverDay(response))
        }
    }
}

extension SourceID {
    package static let met: SourceID = "met"
}

extension MetSource {
    /// `--source met`.
    package static let registration = SourceRegistration(descriptor: descriptor) {
        configuration, _ throws(ExportError) in
        try MetSource(configuration)
    }
}
