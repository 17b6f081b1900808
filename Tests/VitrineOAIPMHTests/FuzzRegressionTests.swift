import Foundation
import Testing
import VitrineFuzzTargets
import VitrineTestSupport

/// Every input a fuzz target once crashed on (kept in `Tests/Fixtures/fuzz-regressions/{oaipmh,json,text}/` by
/// `Scripts/fuzz.sh`), and every fixture, through the same code the fuzz targets run: each must return.
@Suite struct FuzzRegressionTests {
    private static func files(_ folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.allObjects as? [URL] ?? []).filter { !$0.hasDirectoryPath }.sorted { $0.path < $1.path }
    }

    @Test func `inputs that once crashed a fuzz target are read without crashing`() throws {
        let regressions = Fixtures.folder.appendingPathComponent("fuzz-regressions")
        var replayed = 0
        for (kind, target) in [("oaipmh", FuzzTargets.oaiPMH), ("json", FuzzTargets.json), ("text", FuzzTargets.text)] {
            for file in Self.files(regressions.appendingPathComponent(kind)) {
                target(try Data(contentsOf: file))
                replayed += 1
            }
        }
        #expect(replayed >= 3)
    }

    @Test func `every fixture goes through every fuzz target`() throws {
        let fixtures = Self.files(Fixtures.folder).filter { !$0.path.contains("fuzz-regressions") }
        #expect(fixtures.count > 10)
        for file in fixtures {
            let data = try Data(contentsOf: file)
            FuzzTargets.oaiPMH(data)
            FuzzTargets.json(data)
            FuzzTargets.text(data.prefix(512))
        }
    }
}
