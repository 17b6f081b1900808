import Foundation
import VitrineCore
import VitrineOutput

/// `--summary-json FILE`: the run's report as one JSON object, written however the run ends, so that a scheduler's
/// log or monitoring reads the figures of the summary line without parsing it. Passes every line on to `terminal`.
package final class RunReportFile: ProgressDisplayLogic {
    package let path: String
    private let terminal: any ProgressDisplayLogic
    private let last = Locked<(summary: SummaryViewModel?, written: WrittenViewModel?)>((nil, nil))

    package init(path: String, terminal: any ProgressDisplayLogic) {
        self.path = path
        self.terminal = terminal
    }

    package func displaySummary(viewModel: SummaryViewModel) {
        last.withLock { $0.summary = viewModel }
        terminal.displaySummary(viewModel: viewModel)
    }

    package func displayWritten(_ viewModel: WrittenViewModel) {
        last.withLock { $0.written = viewModel }
        terminal.displayWritten(viewModel)
    }

    package func displayProgress(line: String) {
        terminal.displayProgress(line: line)
    }

    package func displayWarning(_ line: String) {
        terminal.displayWarning(line)
    }

    /// Writes that the run is under way, before it harvests anything: a file that cannot be written is found
    /// before the new catalog goes live, and a run killed outright is not read as the last night's.
    package func start() throws(ExportError) {
        try Self.write(RunReport(status: "running", exitStatus: nil, error: nil), to: path)
    }

    /// Writes the report of the run: done when `error` is `nil`, else failed with its line and exit status.
    package func finish(error: ExportError?) throws(ExportError) {
        let (summary, written) = last.current
        var report = summary?.report ?? RunReport()
        if let written {
            report.filesRendered = written.rendered
            report.filesKept = written.kept
            report.notices += written.notices
        }
        if let error {
            report.status = "failed"
            report.exitStatus = error.exitStatus
            report.error = error.description
        }
        try Self.write(report, to: path)
    }

    /// Writes `report` to `path` in one step: a reader never sees half a report.
    package static func write(_ report: RunReport, to path: String) throws(ExportError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(report)
            data.append(0x0A)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ExportError(
                .output("cannot write the run's report to \(path): \(OutputFolder.reason(error, path: path))"))
        }
    }
}
