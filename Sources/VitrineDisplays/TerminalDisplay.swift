import Foundation
import VitrineCore

/// The end-of-run report on standard error: warnings, notices, where the files went, and the summary line.
package struct TerminalDisplay: ProgressDisplayLogic {
    /// Print nothing but the summary (errors are printed by the command).
    package let quiet: Bool
    private let write: @Sendable (String) -> Void

    /// - parameter write: where lines go; standard error unless a test says otherwise.
    package init(quiet: Bool, write: @escaping @Sendable (String) -> Void = TerminalDisplay.standardError) {
        self.quiet = quiet
        self.write = write
    }

    package func displaySummary(viewModel: SummaryViewModel) {
        if !quiet {
            viewModel.warnings.forEach(write)
            viewModel.notices.forEach(write)
            if !viewModel.written.isEmpty { write(viewModel.written) }
        }
        write(viewModel.summary)
    }

    /// A line about the run as a whole, unless quiet.
    package func displayNote(_ line: String) {
        if !quiet { write(line) }
    }

    /// Writes a line to standard error.
    @Sendable package static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
