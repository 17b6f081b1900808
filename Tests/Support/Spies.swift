import Foundation
import VitrineCore

/// Captures what the Interactor presents.
package final class ExportPresentationLogicSpy: ExportPresentationLogic, Sendable {
    private let presented = Locked<[ExportResponse]>([])
    private let progress = Locked<[HarvestProgress]>([])
    private let waits = Locked<[HarvestWait]>([])

    package init() {}

    package var responses: [ExportResponse] { presented.current }
    package var progressReports: [HarvestProgress] { progress.current }
    package var waitReports: [HarvestWait] { waits.current }

    package func presentCatalog(response: consuming ExportResponse) throws {
        let kept = copy response
        presented.withLock { $0.append(kept) }
    }

    package func presentProgress(_ report: HarvestProgress) {
        progress.withLock { $0.append(report) }
    }

    package func presentWait(_ wait: HarvestWait) {
        waits.withLock { $0.append(wait) }
    }
}

/// Captures what the Presenter displays.
package final class CatalogDisplayLogicSpy: CatalogDisplayLogic, ProgressDisplayLogic, Sendable {
    private struct Seen {
        var catalogs: [CatalogViewModel] = []
        var summaries: [SummaryViewModel] = []
        var progressLines: [String] = []
        var written: [WrittenCatalog] = []
    }

    private let seen = Locked(Seen())

    package init() {}

    package var catalogs: [CatalogViewModel] { seen.withLock { $0.catalogs } }
    package var summaries: [SummaryViewModel] { seen.withLock { $0.summaries } }
    package var progressLines: [String] { seen.withLock { $0.progressLines } }
    package var written: [WrittenCatalog] { seen.withLock { $0.written } }

    package func displayCatalog(_ catalog: CatalogParts) throws -> WrittenCatalog {
        let viewModel = try catalog.part(0..<catalog.outline.sections.count)
        seen.withLock { $0.catalogs.append(viewModel) }
        return WrittenCatalog(paths: ["spy/catalog"])
    }

    package func displaySummary(viewModel: SummaryViewModel) {
        seen.withLock { $0.summaries.append(viewModel) }
    }

    package func displayProgress(line: String) {
        seen.withLock { $0.progressLines.append(line) }
    }

    package func displayWritten(_ written: WrittenCatalog) {
        seen.withLock { $0.written.append(written) }
    }
}

/// A source over in-memory pages: page `n` holds the objects given for it; all pages are known up front.
package struct StubSource: CollectionSource {
    package var pages: [[RecordOutcome]]

    package init(pages: [[RecordOutcome]]) {
        self.pages = pages
    }

    package var descriptor: SourceDescriptor { Seeds.descriptor }
    package var firstPage: PageCursor { .number(1) }

    package func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
        guard case .number(let number) = page, let url = URL(string: "http://127.0.0.1/stub?page=\(number)&key=s3cret")
        else { throw .invalidRequest("bad page") }
        return SourceRequest(url: url)
    }

    package func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
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
package struct StubTransport: Transport {
    package var broken: Set<Int>

    package init(broken: Set<Int> = []) {
        self.broken = broken
    }

    package func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
        let page =
            URLComponents(url: request.url, resolvingAgainstBaseURL: false)?
            .queryItems?.first { $0.name == "page" }?.value.flatMap(Int.init) ?? 0
        return SourceResponse(status: 200, body: Data(broken.contains(page) ? "broken".utf8 : "ok".utf8))
    }
}

/// Records the pauses a harvest asks for instead of sleeping.
package final class RecordingSleeper: HarvestSleeper, Sendable {
    private let recorded = Locked<[Duration]>([])

    package init() {}

    package var pauses: [Duration] { recorded.current }

    package func sleep(for duration: Duration) async throws {
        recorded.withLock { $0.append(duration) }
    }
}
