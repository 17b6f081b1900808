import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineOAIPMH
@testable import VitrineSources

/// A store keeps objects as one version of Vitrine read them (`ArtObject.readingVersion`), and harvests every
/// record again when the version changes. Here the objects every fixture reads to (with their order and section
/// keys) are digested: when the digest changes, the version must change with it, or nights keep stale objects.
@Suite struct RecordReadingTests {
    /// `Tests/Fixtures/record-reading.txt`: the version and the digest it was recorded with.
    private static let recorded = Fixtures.folder.appendingPathComponent("record-reading.txt")

    @Test func `what the fixtures read to changes only with the reading version`() async throws {
        var text = ""
        for object in try await Self.everyFixtureObject() {
            text += String(reflecting: object) + "\n" + String(reflecting: MakerName.sectionName(object.maker))
            text += "\n" + CatalogOrder.Key(object).bytes.map(String.init).joined(separator: ",") + "\n"
        }
        var fingerprint = Fingerprint()
        fingerprint.combine(text)
        let line = "\(ArtObject.readingVersion) \(fingerprint)\n"
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try Data(line.utf8).write(to: Self.recorded)
            Issue.record("recorded \(Self.recorded.lastPathComponent); run again without RECORD_SNAPSHOTS")
            return
        }
        let stored = try String(decoding: Data(contentsOf: Self.recorded), as: UTF8.self)
        let (version, digest) = (stored.split(separator: " ").first ?? "", stored.split(separator: " ").last ?? "")
        #expect(
            digest.trimmingCharacters(in: .whitespacesAndNewlines) == fingerprint.description
                || version != String(ArtObject.readingVersion),
            "the fixtures read to other objects: raise ArtObject.readingVersion, so stores read them again")
        #expect(stored == line, "record the new version and digest with RECORD_SNAPSHOTS=1")
    }

    /// Every object of every fixture of every source that reads records, in a fixed order.
    private static func everyFixtureObject() async throws -> [ArtObject] {
        func files(_ folder: String, _ suffix: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: Fixtures.folder.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(suffix) }.sorted()
        }
        func objects(_ page: SourcePage) -> [ArtObject] {
            page.records.compactMap { if case .object(let object) = $0 { object } else { nil } }
        }
        var all: [ArtObject] = []
        var read: [String: Int] = [:]
        for folder in ["rijksmuseum-oai", "oai-dc", "oai-dspace", "oai-zenodo", "oai-nsdl"] {
            for name in try files(folder, ".xml") {
                for language in ["en", "nl"] {
                    guard
                        let response = try? OAIPMHPageParser.parse(
                            try Fixtures.data(folder, name), mapper: OAIRecordMapper(language: language))
                    else { continue }
                    let found = response.outcomes.compactMap {
                        if case .object(let object) = $0 { object } else { nil }
                    }
                    all += found
                    read[folder, default: 0] += found.count
                }
            }
        }
        let sources: [(folder: String, source: any CollectionSource, page: (String) -> PageCursor)] = [
            ("aic", ArtInstituteSource(baseURL: url("http://127.0.0.1:9/api/v1")), { _ in .number(1) }),
            (
                "met", MetSource(baseURL: url("http://127.0.0.1:9/public/collection")),
                { .object(String($0.filter(\.isNumber))) }
            ),
            ("unsplash", UnsplashSource(baseURL: url("http://127.0.0.1:9"), key: "k3y"), { _ in .number(1) }),
            (
                "rijksmuseum-legacy",
                RijksmuseumLegacySource(baseURL: url("http://127.0.0.1:1/api"), culture: "en", key: "k", pageSize: 5),
                { .number(Int($0.filter(\.isNumber)) ?? 0) }
            ),
        ]
        for (folder, source, page) in sources {
            for name in try files(folder, ".json") {
                let response = SourceResponse(status: 200, body: try Fixtures.data(folder, name))
                guard let decoded = try? await source.decode(response, page: page(name)) else { continue }
                all += objects(decoded)
                read[folder, default: 0] += objects(decoded).count
            }
        }
        #expect(read.count == 9 && read.values.allSatisfy { $0 > 0 }, "every source's fixtures read: \(read)")
        return all
    }
}
