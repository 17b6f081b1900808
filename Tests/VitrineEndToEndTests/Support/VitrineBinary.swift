import Foundation

/// The `vitrine` binary SwiftPM built beside the test bundle, run as a process of its own that a test may kill.
final class VitrineBinary: @unchecked Sendable {
    /// The binary.
    static var url: URL {
        var folder = Bundle.main.bundleURL
        while folder.path != "/"
            && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("vitrine").path)
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("vitrine")
    }

    let process = Process()

    /// Starts `vitrine arguments…`, its output thrown away. The user's cache is never touched: `XDG_CACHE_HOME` is a
    /// folder of the test's unless `environment` names one.
    init(_ arguments: [String], environment: [String: String] = [:], cacheHome: URL) throws {
        process.executableURL = Self.url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 }
            .merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Kills it as a power cut would (SIGKILL).
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for it to end, on a thread of its own (the loopback mock in this process needs the concurrency pool),
    /// and returns its exit status (or the signal that ended it).
    func exit() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [process] in
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }
}
