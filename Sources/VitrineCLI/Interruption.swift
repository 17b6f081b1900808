import Foundation
import VitrineCore
import VitrineDisplays

/// Ctrl-C (`SIGINT`) and a service manager's stop (`SIGTERM`) during an export: one line saying that the same command
/// resumes, the run's report marked interrupted, then the shell's status for the signal (130 or 143). What the run had
/// fetched stays in the page cache, and the output folder keeps its last complete catalog.
///
/// A handler of its own writes the signal to a pipe, which a thread of its own reads: a signal may land on any
/// thread, and libdispatch's signal sources on Linux can lose one delivered to a thread that does not block it.
struct Interruption {
    /// The pipe's write end, for the handler, which can capture nothing: set once, before a handler is installed.
    private nonisolated(unsafe) static var writeEnd: Int32 = -1

    static func watch(report: String?) -> Interruption {
        var ends: [Int32] = [0, 0]
        // Without a pipe the signals keep their default: the run stops, without the line.
        guard pipe(&ends) == 0 else { return Interruption() }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        writeEnd = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var number: UInt8 = 0
            while read(readEnd, &number, 1) != 1 {
                guard errno == EINTR else {
                    // Nothing would read the pipe: the signals stop the run as they would without Vitrine's line.
                    Interruption().cancel()
                    return
                }
            }
            // On a terminal, off the progress line first.
            let start = TerminalDisplay.standardErrorIsTerminal ? "\n" : ""
            let line = "vitrine: interrupted; run the same command again to resume"
            TerminalDisplay.standardError(start + line)
            let status = 128 + Int32(number)
            if let report {
                try? RunReportFile.write(RunReport(status: "interrupted", exitStatus: status, error: line), to: report)
            }
            // The lines above are written already (no buffer).
            _exit(status)
        }
        for number in [SIGINT, SIGTERM] {
            _ = signal(number) { number in
                // Only async-signal-safe calls here: one byte to the pipe.
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(Interruption.writeEnd, &byte, 1)
            }
        }
        return Interruption()
    }

    /// The signals' defaults again, once the export has ended.
    func cancel() {
        for number in [SIGINT, SIGTERM] { _ = signal(number, SIG_DFL) }
    }
}
