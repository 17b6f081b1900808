import Foundation

@testable import VitrineOutput

/// A manifest whole in memory, as the tests read and write one; an export streams its lines.
struct ListedManifest: Equatable {
    /// The fingerprint and size of each file written, by its path relative to the output folder.
    var made: [String: OutputManifest.Made] = [:]
    /// Files listed without a fingerprint (by an older Vitrine).
    var unfingerprinted: Set<String> = []

    /// Every file listed, in no particular order.
    var files: [String] {
        Array(made.keys) + unfingerprinted.filter { made[$0] == nil }
    }

    /// The manifest of the catalog folder `catalog` (an output folder, or a folder beside `output`); `nil` when it
    /// has none.
    static func read(ofCatalog catalog: URL, output: URL? = nil) -> ListedManifest? {
        var manifest = ListedManifest()
        let found = OutputManifest.scan(OutputManifest.path(ofCatalog: catalog.path, output: output ?? catalog)) {
            path, made in
            let path = String(decoding: path, as: UTF8.self)
            if let made { manifest.made[path] = made } else { manifest.unfingerprinted.insert(path) }
        }
        return found ? manifest : nil
    }

    /// Writes the manifest into the records folder `folder`, as an export writes one.
    func write(in folder: URL) throws {
        try OutputManifest.write(in: folder) { line in
            for path in files.sorted() {
                var path = path
                let made = made[path]
                path.withUTF8 { line($0, made) }
            }
        }
    }
}
