import Foundation

@testable import VitrineCore

/// Captures what the Interactor presents.
final class ExportPresentationLogicSpy: ExportPresentationLogic, Sendable {
    private let presented = Locked<[ExportResponse]>([])
    private let progress = Locked<[HarvestProgress]>([])

    var responses: [ExportResponse] { presented.current }
    var progressReports: [HarvestProgress] { progress.current }

    func presentCatalog(response: ExportResponse) throws {
        presented.withLock { $0.append(response) }
    }

    func presentProgress(_ report: HarvestProgress) {
        progress.withLock { $0.append(report) }
    }
}

/// Captures what the Presenter displays.
final class CatalogDisplayLogicSpy: CatalogDisplayLogic, ProgressDisplayLogic, Sendable {
    private struct Seen {
        var catalogs: [CatalogViewModel] = []
        var summaries: [SummaryViewModel] = []
        var progressLines: [String] = []
    }

    private let seen = Locked(Seen())

    var catalogs: [CatalogViewModel] { seen.withLock { $0.catalogs } }
    var summaries: [SummaryViewModel] { seen.withLock { $0.summaries } }
    var progressLines: [String] { seen.withLock { $0.progressLines } }

    func displayCatalog(viewModel: CatalogViewModel) throws -> [String] {
        seen.withLock { $0.catalogs.append(viewModel) }
        return ["spy/catalog"]
    }

    func displaySummary(viewModel: SummaryViewModel) {
        seen.withLock { $0.summaries.append(viewModel) }
    }

    func displayProgress(line: String) {
        seen.withLock { $0.progressLines.append(line) }
    }
}

/// A source over in-memory pages: page `n` holds the objects given for it; all pages are known up front.
struct StubSource: CollectionSource {
    var pages: [[RecordOutcome]]
    var descriptor: SourceDescriptor { Seeds.descriptor }
    var firstPage: PageCursor { .number(1) }

    func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        guard case .number(let number) = page, let url = URL(string: "http://127.0.0.1/stub?page=\(number)&key=s3cret")
        else { throw .invalidRequest("bad page") }
        return SourceRequest(url: url)
    }

    func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
        guard case .number(let number) = page, number >= 1, number <= pages.count else {
            throw .undecodablePage("no such page")
        }
        if response.body == Data("broken".utf8) { throw .undecodablePage("not valid JSON") }
        return SourcePage(
            records: pages[number - 1],
            continuation: .pageNumbers(lastPage: pages.count, limit: pages.count, pageSize: 100))
    }
}

/// Answers every request at once; pages listed in `broken` get a body the stub cannot read.
struct StubTransport: Transport {
    var broken: Set<Int> = []

    func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
        let page =
            URLComponents(url: request.url, resolvingAgainstBaseURL: false)?
            .queryItems?.first { $0.name == "page" }?.value.flatMap(Int.init) ?? 0
        return SourceResponse(status: 200, body: Data(broken.contains(page) ? "broken".utf8 : "ok".utf8))
    }
}
