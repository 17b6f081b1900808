@testable import VitrineOutput

extension StagedManifest {
    /// The manifest's table: each path's fingerprint and size (a path staged twice keeps the last).
    func table() -> [String: OutputManifest.Made] {
        var table: [String: OutputManifest.Made] = [:]
        forEach { path, file in table[String(decoding: path, as: UTF8.self)] = file }
        return table
    }
}
