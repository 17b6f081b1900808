import Foundation

/// Fixture files in the real APIs' shapes, under `Tests/Fixtures/{source}/`, shared by every test target. Read
/// from the source tree (as the golden files are), so no target has to carry them as resources.
package enum Fixtures {
    /// `Tests/Fixtures`, found from this file's place in the tree.
    package static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    package static func url(_ source: String, _ name: String) -> URL {
        folder.appendingPathComponent(source).appendingPathComponent(name)
    }

    package static func data(_ source: String, _ name: String) throws -> Data {
        try Data(contentsOf: url(source, name))
    }

    /// The legacy Rijksmuseum fixture: four pages, Fokke last on page 0, Allemand first on page 2, one broken
    /// record, one duplicate, null images, an anonymous and an empty maker, a Japanese maker.
    package static func legacyPages() throws -> [Data] {
        try (0...3).map { try data("rijksmuseum-legacy", "page-\($0).json") }
    }
}

/// A URL from a literal the test knows is valid.
package func url(_ text: String) -> URL {
    URL(string: text) ?? URL(fileURLWithPath: "/invalid")
}
