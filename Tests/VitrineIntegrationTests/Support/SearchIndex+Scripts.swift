import VitrineCore

@testable import VitrineDisplays

extension SearchIndex {
    /// File name stem (the key, with `$` spelled `-end` for file systems and URLs) → script, in key order.
    func shardScripts() async throws(ExportError) -> [(String, String)] {
        let scripts = Locked<[(key: String, stem: String, script: String)]>([])
        try await forEachShard { key, stem, script in
            scripts.withLock { $0.append((key, stem, String(decoding: script, as: UTF8.self))) }
        }
        return scripts.current.sorted { $0.key < $1.key }.map { ($0.stem, $0.script) }
    }
}
