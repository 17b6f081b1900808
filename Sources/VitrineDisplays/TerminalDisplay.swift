import Foundation
import VitrineCore

/// The end-of-run report on standard error: warnings, notices, where the files went (as the catalog display
/// reports them), and the summary line.
package struct TerminalDisplay: ProgressDisplayLogic {
    /// Print nothing but the summary (errors are printed by the command).
    package let quiet: Bool
    /// On a terminal progress rewrites one line; elsewhere (a log file, CI) it is a plain line now and then.
    package let isTerminal: Bool
    /// How often a plain progress line is written when not on a terminal.
    package let logInterval: Duration
    private let write: @Sendable (String) -> Void
    private let progress = ProgressLineState()

    /// - parameter write: where lines go; standard error unless a test says otherwise.
    package init(
        quiet: Bool,
        isTerminal: Bool = false,
        logInterval: Duration = .seconds(10),
        write: @escaping @Sendable (String) -> Void = TerminalDisplay.standardError
    ) {
        self.quiet = quiet
        self.isTerminal = isTerminal
        self.logInterval = logInterval
        // Every line may carry a server's words (an error body, an OAI message, a title in a warning).
        self.write = { write(PrintableText.clean($0)) }
    }

    /// Whether standard error is a terminal.
    package static var standardErrorIsTerminal: Bool {
        isatty(FileHandle.standardError.fileDescriptor) == 1
    }

    package func displayProgress(line: String) {
        guard !quiet else { return }
        if isTerminal {
            FileHandle.standardError.write(Data("\r\u{1B}[K\(PrintableText.clean(line))".utf8))
            progress.markShown()
        } else if progress.due(every: logInterval) {
            write("progress: \(line)")
        }
    }

    package func displayWarning(_ line: String) {
        if !quiet { write(line) }
    }

    package func displaySummary(viewModel: SummaryViewModel) {
        if isTerminal && progress.wasShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if !quiet {
            viewModel.warnings.forEach(write)
            viewModel.notices.forEach(write)
            if let written = progress.written { write(written) }
            progress.outputNotices.forEach(write)
        }
        write(viewModel.summary)
    }

    package func displayWritten(_ viewModel: WrittenViewModel) {
        progress.setWritten(viewModel.line, notices: viewModel.notices.map { "note: \($0)" })
    }

    /// Writes a line to standard error.
    @Sendable package static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((PrintableText.clean(line) + "\n").utf8))
    }
}

/// When the last plain progress line went out, whether a terminal line is showing, and the files written.
private final class ProgressLineState: Sendable {
    private struct State {
        var last: ContinuousClock.Instant?
        var shown = false
        /// Where the catalogs went, and what to know of the output folder, printed with the summary.
        var written: String?
        var outputNotices: [String] = []
    }

    private let state = Locked(State())

    var wasShown: Bool { state.withLock { $0.shown } }

    func markShown() { state.withLock { $0.shown = true } }

    var written: String? { state.withLock { $0.written } }

    func setWritten(_ line: String?, notices: [String]) {
        state.withLock {
            $0.written = line
            $0.outputNotices = notices
        }
    }

    var outputNotices: [String] { state.withLock { $0.outputNotices } }

    /// Whether `interval` has passed since the last line (the first is due after one interval too).
    func due(every interval: Duration) -> Bool {
        state.withLock { state in
            let now = ContinuousClock.now
            guard let previous = state.last else {
                state.last = now
                return false
            }
            guard now - previous >= interval else { return false }
            state.last = now
            return true
        }
    }
}
