import Foundation

/// Answers `GET /api/{culture}/collection?key=…&p=…&ps=…` as the Rijksmuseum collection API did.
struct LegacyCollectionHandler: MockHandler {
    let collection: LegacyCollection
    let configuration: MockConfiguration
    let state: MockMuseumState

    func handle(_ request: MockRequest) async throws -> MockResponse {
        await state.record(request)
        if configuration.latency > .zero { try await Task.sleep(for: configuration.latency) }

        if configuration.retired { return text(410, "Gone") }
        let parts = request.path.split(separator: "/")
        guard parts.count == 3, parts[0] == "api", parts[2] == "collection" else { return json(404, #""Not found""#) }
        let value = { (name: String) in request.query.first { $0.name == name }?.value }
        if let required = configuration.requiredKey, value("key") != required {
            return json(401, #""Invalid key""#)
        }
        let page = value("p").flatMap(Int.init) ?? 0
        let pageSize = value("ps").flatMap(Int.init) ?? 10
        if let status = configuration.failingPages[page] { return text(status, "Internal Server Error") }
        if configuration.malformedPages.contains(page) { return text(200, #"{"artObjects": [{"objectNumber" 1}]}"#) }
        if configuration.cutShortOnce.contains(page),
            await state.requests.count(where: { $0.contains("&p=\(page)&") }) == 1
        {
            return text(200, #"{"artObjects": [{"objectNumber": "#)
        }
        let index = configuration.firstPageNumber == 0 ? page : max(page, 1) - 1
        return MockResponse(
            status: 200,
            headers: ["Content-Type": "application/json; charset=utf-8", "X-Powered-By": "ASP.NET"],
            body: collection.body(page: index, pageSize: pageSize, apiBase: request.origin + "/api")
        )
    }

    private func json(_ status: Int, _ body: String) -> MockResponse {
        MockResponse(
            status: status,
            headers: ["Content-Type": "application/json; charset=utf-8"],
            body: Data(body.utf8)
        )
    }

    private func text(_ status: Int, _ body: String) -> MockResponse {
        MockResponse(
            status: status,
            headers: ["Content-Type": "text/html"],
            body: Data(body.utf8)
        )
    }
}
