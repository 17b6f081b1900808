import Foundation
import Testing

/// Golden files in `Tests/VitrineIntegrationTests/Snapshots/`, named after the test. With `RECORD_SNAPSHOTS=1` the file
/// is written again and the test still fails, so no baseline is ever accepted silently.
enum Snapshot {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func assert(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(name); run again without RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no golden file \(name): run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "differs from \(name)", sourceLocation: sourceLocation)
    }
}
