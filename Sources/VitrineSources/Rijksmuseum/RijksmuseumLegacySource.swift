import Foundation
import VitrineCore

/// The Rijksmuseum's retired collection API: `GET {base}/{culture}/collection?key=…&p=…&ps=…&s=artist`.
///
/// The museum's own host answers 410 Gone; the source stays for mirrors, recorded data and the demo, which has
/// its shape. Pages are numbered; the docs count from 0 and some clients from 1, so pages 0 through
/// ⌈count / ps⌉ are fetched (and more while pages keep coming back full), and a page served twice is dropped as
/// duplicates. The API serves no result past `p × ps = 10 000`: the rest is reported as out of reach.
package struct RijksmuseumLegacySource: CollectionSource {
    package static let defaultBaseURL = "https://www.rijksmuseum.nl/api"
    package static let keyVariable = "RIJKSMUSEUM_API_KEY"
    /// The API's cap: `p × ps` may not exceed this.
    package static let resultWindow = 10_000
    package static let maximumPageSize = 100

    package static let descriptor = SourceDescriptor(
        name: SourceID.rijksmuseumLegacy.rawValue,
        institution: "Rijksmuseum",
        defaultBaseURL: defaultBaseURL,
        paging: "page numbers p/ps (up to 100 a page), first 10,000 results only",
        keyVariable: keyVariable,
        filters: ["--query", "--artist", "--start-page", "--language"],
        summary: "The Rijksmuseum's retired collection API (answers 410 Gone); for mirrors and recorded data.",
        speculativePaging: true,
        // It names a copyright holder at most, never that an image may be reused.
        statesRights: false
    )

    package let descriptor: SourceDescriptor
    package let baseURL: URL
    package let culture: String
    package let key: String?
    package let pageSize: Int
    package let query: String?
    package let artist: String?
    package let startPage: Int

    /// - parameter descriptor: lets the demo reuse this source under its own name.
    package init(
        baseURL: URL,
        culture: String = "en",
        key: String?,
        pageSize: Int = 100,
        query: String? = nil,
        artist: String? = nil,
        startPage: Int = 0,
        descriptor: SourceDescriptor = Self.descriptor
    ) {
        self.baseURL = baseURL
        self.culture = culture
        self.key = key
        self.pageSize = pageSize
        self.query = query
        self.artist = artist
        self.startPage = startPage
        self.descriptor = descriptor
    }

    /// Builds the source from command-line settings; the key comes from `--key` or `RIJKSMUSEUM_API_KEY`.
    package init(_ configuration: SourceConfiguration, environment: [String: String]) throws(ExportError) {
        let settings = try configuration.settings(
            for: Self.descriptor, pageSizes: .upTo(Self.maximumPageSize), firstPage: 0, environment: environment)
        // A mirror or a recording may need no key; the museum's own API did.
        if settings.key == nil && configuration.baseURL == nil {
            throw ExportError(
                .configuration("the Rijksmuseum API needs a key: pass --key or set \(Self.keyVariable)"),
                source: Self.descriptor.name)
        }
        self.init(
            baseURL: settings.baseURL, culture: configuration.language, key: settings.key,
            pageSize: settings.pageSize, query: configuration.query, artist: configuration.artist,
            startPage: settings.startPage)
    }

    package var firstPage: PageCursor { .number(startPage) }

    package func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        let number = try page.pageNumber()
        let collection = baseURL.appendingPathComponent(culture).appendingPathComponent("collection")
        var parameters: [(String, String)] = []
        if let key { parameters.append(("key", key)) }
        parameters += [("format", "json"), ("p", String(number)), ("ps", String(pageSize)), ("s", "artist")]
        if let query { parameters.append(("q", query)) }
        if let artist { parameters.append(("involvedMaker", artist)) }
        return SourceRequest(
            url: try QueryString.url(collection, adding: parameters), headers: ["Accept": "application/json"])
    }

    package func failure(for response: SourceResponse) -> HarvestFailure? {
        switch response.status {
        case 200..<300:
            return nil
        case 401:
            return .keyRefused(
                "the Rijksmuseum API refused the key (HTTP 401): check --key or \(Self.keyVariable)"
            )
        case 410:
            return .retired(
                "the Rijksmuseum has retired this API (HTTP 410 Gone): use --source rijksmuseum for its "
                    + "OAI-PMH service, or --base-url for a mirror"
            )
        case 400, 403:
            return .httpStatus(
                response.status,
                "the API refused the page; it serves no result past p × ps = 10,000 (use --source rijksmuseum)"
            )
        default:
            return response.statusFailure
        }
    }

    package func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
        var mending: [String] = []
        let list = try response.decodeJSON(RijksmuseumLegacyPayload.List.self, page: page, notices: &mending)
        guard let records = list.artObjects else {
            throw .undecodablePage("no artObjects array")
        }
        let outcomes = records.map { record in record.outcome { $0.artObject(culture: culture) } }
        let count = list.count?.value
        guard case .number(let number) = page else {
            return SourcePage(records: outcomes, continuation: .end, reportedTotal: count)
        }
        let reachable = Self.resultWindow / pageSize
        // A count that is missing or 0 is not the end: pages are asked for while they come back full, the next one
        // included (a server counting pages from 1 answers p=0 and p=1 alike).
        guard let count, count > 0 else {
            let continuation: Continuation =
                outcomes.isEmpty ? .end : .pageNumbers(lastPage: number + 1, limit: reachable, pageSize: pageSize)
            return SourcePage(records: outcomes, continuation: continuation, reportedTotal: nil, notices: mending)
        }
        let (lastPage, notices) = plan(count: count)
        return SourcePage(
            records: outcomes, continuation: .pageNumbers(lastPage: lastPage, limit: reachable, pageSize: pageSize),
            // Pages before --start-page are not read, so the count would not be a fair comparison.
            reportedTotal: startPage > 1 ? nil : count, notices: notices + mending)
    }

    /// The last page to ask for, and a notice when the API's window hides part of the result.
    private func plan(count: Int) -> (lastPage: Int, notices: [String]) {
        // Pages 0…⌈count / ps⌉ cover the result whether the server counts pages from 0 or from 1.
        let wanted = count / pageSize + (count % pageSize == 0 ? 0 : 1)
        let reachable = Self.resultWindow / pageSize
        guard wanted > reachable else { return (wanted, []) }
        let notice =
            "the API reports \(NumberText.grouped(count)) objects but serves only the first "
            + "\(NumberText.grouped(Self.resultWindow)) (p × ps ≤ 10,000); "
            + "use --source rijksmuseum (OAI-PMH) for the whole collection"
        return (reachable, [notice])
    }
}

extension SourceID {
    package static let rijksmuseumLegacy: SourceID = "rijksmuseum-legacy"
}

extension RijksmuseumLegacySource {
    /// `--source rijksmuseum-legacy`.
    package static let registration = SourceRegistration(descriptor: descriptor) {
        configuration, environment throws(ExportError) in
        try RijksmuseumLegacySource(configuration, environment: environment)
    }
}
