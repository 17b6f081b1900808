import Dispatch
import Foundation
import VitrineCore
import VitrineDisplays

/// Ctrl-C (`SIGINT`) and a service manager's stop (`SIGTERM`) during an export: one line saying that the same command
/// resumes, the run's report marked interrupted, then the shell's status for the signal (130 or 143). What the run had
/// fetched stays in the page cache, and the output folder keeps its last complete catalog.
struct Interruption {
    private let sources: [any DispatchSourceSignal]

    static func watch(report: String?) -> Interruption {
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // On a terminal, off the progress line first.
                let start = TerminalDisplay.standardErrorIsTerminal ? "\n" : ""
                TerminalDisplay.standardError(start + "vitrine: interrupted; run the same command again to resume")
                if let report {
                    try? RunReportFile.write(
                        RunReport(status: "interrupted", exitStatus: 128 + number, error: nil), to: report)
                }
                // Not `raise`: the queue's thread blocks signals. The lines above are written already (no buffer).
                _exit(128 + number)
            }
            source.resume()
            return source
        }
        return Interruption(sources: sources)
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
