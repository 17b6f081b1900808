import Foundation
import Testing

/// Fixture files in the real APIs' shapes, under `Tests/VitrineTests/Fixtures/{source}/`.
enum Fixtures {
    static func url(_ source: String, _ name: String) throws -> URL {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(source)/\(name)", withExtension: nil))
        return url
    }

    static func data(_ source: String, _ name: String) throws -> Data {
        try Data(contentsOf: url(source, name))
    }

    /// The legacy Rijksmuseum fixture: four pages, Fokke last on page 0, Allemand first on page 2, one broken
    /// record, one duplicate, null images, an anonymous and an empty maker, a Japanese maker.
    static func legacyPages() throws -> [Data] {
        try (0...3).map { try data("rijksmuseum-legacy", "page-\($0).json") }
    }
}

/// A URL from a literal the test knows is valid.
func url(_ text: String) -> URL {
    URL(string: text) ?? URL(fileURLWithPath: "/invalid")
}
