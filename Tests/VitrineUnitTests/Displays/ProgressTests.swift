import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays

/// Progress while harvesting: the line the Presenter makes, and where the terminal display puts it.
@Suite struct ProgressTests {
    @Test func `the progress line tells pages, objects of the total, rate, time left, cache and retries`() {
        let progress = HarvestProgress(
            source: "rijksmuseum", pages: 120, objects: 6_000, reportedTotal: 843_943, elapsed: 7.5, retries: 2,
            cacheHits: 40)
        #expect(
            ExportPresenter.progressLine(progress)
                == "rijksmuseum: 120 pages, 6,000 of 843,943 objects (0.7%), 800 objects/s, about 17 min 27 s left, "
                + "40 from cache, 2 retries")
        let unknownTotal = HarvestProgress(
            source: "met", pages: 1, objects: 1, reportedTotal: nil, elapsed: 1, retries: 1, cacheHits: 0)
        #expect(ExportPresenter.progressLine(unknownTotal) == "met: 1 page, 1 object, 1 objects/s, 1 retry")
        // A windowed OAI-PMH harvest says where its date windows stand.
        let windowed = HarvestProgress(
            source: "rijksmuseum", pages: 10, objects: 500, reportedTotal: 20_000, elapsed: 1, retries: 0, cacheHits: 0,
            windows: WindowCounts(planned: 12, running: 8, done: 3))
        #expect(
            ExportPresenter.progressLine(windowed)
                == "rijksmuseum: 10 pages, 500 of 20,000 objects (2.5%), 500 objects/s, about 39.0 s left, "
                + "date windows: 3 done, 8 running, 12 planned")
    }

    @Test func `off a terminal progress is a plain line now and then; quiet prints none`() {
        let lines = LineRecorder()
        let display = TerminalDisplay(quiet: false, isTerminal: false, logInterval: .zero, write: lines.append)
        display.displayProgress(line: "demo: 1 page")
        display.displayProgress(line: "demo: 2 pages")
        #expect(lines.lines == ["progress: demo: 2 pages"])

        let quietLines = LineRecorder()
        let quiet = TerminalDisplay(quiet: true, isTerminal: false, logInterval: .zero, write: quietLines.append)
        quiet.displayProgress(line: "demo: 1 page")
        quiet.displayProgress(line: "demo: 2 pages")
        quiet.displayWritten(ExportPresenter.writtenViewModel(WrittenCatalog(paths: ["Output/index.html"])))
        quiet.displaySummary(viewModel: SummaryViewModel(warnings: ["w"], notices: ["n"], summary: "s"))
        #expect(quietLines.lines == ["s"])

        let loudLines = LineRecorder()
        let loud = TerminalDisplay(quiet: false, isTerminal: false, logInterval: .zero, write: loudLines.append)
        loud.displayWritten(
            ExportPresenter.writtenViewModel(
                WrittenCatalog(paths: ["Output/index.html", "Output/objects"], rendered: 3, kept: 1_200)))
        loud.displaySummary(viewModel: SummaryViewModel(warnings: ["w"], notices: ["n"], summary: "s"))
        #expect(
            loudLines.lines == [
                "w", "n", "wrote Output/index.html, Output/objects (3 files rendered, 1,200 unchanged and kept)", "s",
            ], "the files written, as the Presenter words them, print before the summary")
    }

    @Test func `the interactor reports progress as pages arrive`() async throws {
        let spy = ExportPresentationLogicSpy()
        let interactor = ExportInteractor(
            source: StubSource(pages: [[.object(Seeds.object("A", "M"))], [.object(Seeds.object("B", "M"))]]),
            transport: StubTransport(), presenter: spy, progressInterval: .zero)
        _ = try await interactor.harvest(options: HarvestOptions(concurrency: 1))
        #expect(spy.progressReports.map(\.pages) == [1, 2])
        #expect(spy.progressReports.last?.objects == 2)
    }
}

final class LineRecorder: Sendable {
    private let recorded = Locked<[String]>([])

    var lines: [String] { recorded.current }

    @Sendable func append(_ line: String) {
        recorded.withLock { $0.append(line) }
    }
}
