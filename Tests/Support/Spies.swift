import Foundation
import VitrineCore

/// Captures what the Interactor presents.
package final class ExportPresentationLogicSpy: ExportPresentationLogic, Sendable {
    private struct Seen {
        var starts: [CatalogStart] = []
        var parts: [[ArtistSection]] = []
        var ends: [ExportStatistics] = []
        var abandoned = 0
        var progress: [HarvestProgress] = []
        var waits: [HarvestWait] = []
    }

    private let seen = Locked(Seen())

    package init() {}

    package var starts: [CatalogStart] { seen.withLock { $0.starts } }
    package var parts: [[ArtistSection]] { seen.withLock { $0.parts } }
    package var ends: [ExportStatistics] { seen.withLock { $0.ends } }
    package var abandoned: Int { seen.withLock { $0.abandoned } }
    package var progressReports: [HarvestProgress] { seen.withLock { $0.progress } }
    package var waitReports: [HarvestWait] { seen.withLock { $0.waits } }

    package func presentStart(_ start: CatalogStart) async throws {
        seen.withLock { $0.starts.append(start) }
    }

    package func presentPart(_ sections: consuming [ArtistSection]) async throws {
        let kept = copy sections
        seen.withLock { $0.parts.append(kept) }
    }

    package func presentEnd(source: SourceDescriptor, statistics: ExportStatistics) async throws {
        seen.withLock { $0.ends.append(statistics) }
    }

    package func presentAbandoned() async {
        seen.withLock { $0.abandoned += 1 }
    }

    package func presentProgress(_ report: HarvestProgress) {
        seen.withLock { $0.progress.append(report) }
    }

    package func presentWait(_ wait: HarvestWait) {
        seen.withLock { $0.waits.append(wait) }
    }
}

/// Captures what the Presenter displays: each catalog whole, as its outline and parts add up.
package final class CatalogDisplayLogicSpy: CatalogDisplayLogic, ProgressDisplayLogic, Sendable {
    private struct Seen {
        var catalogs: [CatalogViewModel] = []
        var building: (catalog: CatalogViewModel, next: Int)?
        var summaries: [SummaryViewModel] = []
        var progressLines: [String] = []
        var warnings: [String] = []
        var written: [WrittenViewModel] = []
        var abandoned = 0
    }

    private let seen = Locked(Seen())

    package init() {}

    package var catalogs: [CatalogViewModel] { seen.withLock { $0.catalogs } }
    package var summaries: [SummaryViewModel] { seen.withLock { $0.summaries } }
    package var progressLines: [String] { seen.withLock { $0.progressLines } }
    package var warnings: [String] { seen.withLock { $0.warnings } }
    package var written: [WrittenViewModel] { seen.withLock { $0.written } }
    package var abandoned: Int { seen.withLock { $0.abandoned } }

    package func displayStart(_ outline: CatalogViewModel) async throws {
        seen.withLock { $0.building = (outline, 0) }
    }

    package func displayPart(_ objects: consuming [[CatalogViewModel.DisplayedObject]]) async throws {
        let part = copy objects
        try seen.withLock { seen in
            guard var building = seen.building, building.next + part.count <= building.catalog.sections.count else {
                throw ExportError(.output("a part the spy did not expect"))
            }
            for objects in part {
                building.catalog.sections[building.next].objects = objects
                building.next += 1
            }
            seen.building = building
        }
    }

    package func displayEnd() async throws -> WrittenCatalog {
        try seen.withLock { seen in
            guard let building = seen.building, building.next == building.catalog.sections.count else {
                throw ExportError(.output("the catalog ended before its last section"))
            }
            seen.catalogs.append(building.catalog)
            seen.building = nil
        }
        return WrittenCatalog(paths: ["spy/catalog"])
    }

    package func displayAbandoned() async {
        seen.withLock { seen in
            seen.building = nil
            seen.abandoned += 1
        }
    }

    package func displaySummary(viewModel: SummaryViewModel) {
        seen.withLock { $0.summaries.append(viewModel) }
    }

    package func displayProgress(line: String) {
        seen.withLock { $0.progressLines.append(line) }
    }

    package func displayWarning(_ line: String) {
        seen.withLock { $0.warnings.append(line) }
    }

    package func displayWritten(_ viewModel: WrittenViewModel) {
        seen.withLock { $0.written.append(viewModel) }
    }
}

extension ExportPresenter {
    /// The whole catalog a harvested collection makes, pushed as an export pushes it (into a spy display).
    package func makeViewModel(response: HarvestedCollection) async throws -> CatalogViewModel {
        var response = response
        let spy = CatalogDisplayLogicSpy()
        let presenter = ExportPresenter(
            thumbnailWidth: thumbnailWidth, catalogDisplay: spy, progressDisplay: spy, site: site)
        try await response.push(to: presenter)
        guard let catalog = spy.catalogs.last else { throw ExportError(.output("no catalog was presented")) }
        return catalog
    }
}

/// A source over in-memory pages: page `n` holds the objects given for it; all pages are known up front.
package struct StubSource: CollectionSource {
    package var pages: [[RecordOutcome]]
    package var statesRights = true

    package init(pages: [[RecordOutcome]]) {
        self.pages = pages
    }

    package var descriptor: SourceDescriptor {
        var descriptor = Seeds.descriptor
        descriptor.statesRights = statesRights
        return descriptor
    }
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
