import FlyingFox
import Foundation

/// Answers `GET /api/{culture}/collection?key=…&p=…&ps=…` as the Rijksmuseum collection API did.
struct LegacyCollectionHandler: HTTPHandler {
    let collection: LegacyCollection
    let configuration: MockConfiguration
    let state: MockMuseumState

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        await state.record(query.isEmpty ? request.path : "\(request.path)?\(query)")
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
        if configuration.malformedPages.contains(page) { return text(200, "<html>Service Unavailable</html>") }
        let index = configuration.firstPageNumber == 0 ? page : max(page, 1) - 1
        return HTTPResponse(
            statusCode: HTTPStatusCode(200, phrase: "OK"),
            headers: [.contentType: "application/json; charset=utf-8", HTTPHeader("X-Powered-By"): "ASP.NET"],
            body: collection.body(page: index, pageSize: pageSize)
        )
    }

    private func json(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: "Status"),
            headers: [.contentType: "application/json; charset=utf-8"],
            body: Data(body.utf8)
        )
    }

    private func text(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: "Status"),
            headers: [.contentType: "text/html"],
            body: Data(body.utf8)
        )
    }
}
