import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineStore

/// With a collection store, a run stages what it reads in the store instead of holding it (issue 13, item 5), by
/// the same domain rules as a run held in memory: the catalogs are the same.
@Suite struct StagedRunTests {
    /// Pages with a repeated id whose later datestamp comes first, a repeat on the same maker, a maker spelled
    /// composed and decomposed, anonymous labels and a skipped record.
    private static let pages: [[RecordOutcome]] = [
        [
            .object(dated("SK-A-1", "Jan Steen", "2026-01-01T00:00:00Z", title: "Old")),
            .object(dated("SK-A-2", "\u{C9}mile Bernard", "2026-01-01T00:00:00Z")),
            .object(dated("SK-A-10", nil, nil)),
        ],
        [
            .object(dated("SK-A-1", "Jan Steen", "2026-03-01T00:00:00Z", title: "Revised")),
            .object(dated("SK-A-3", "E\u{301}mile Bernard", "2026-01-01T00:00:00Z")),
            .skipped(reason: "no identifier"),
            .object(dated("SK-A-4", "anoniem", nil)),
        ],
        [
            .object(dated("SK-A-2", "\u{C9}mile Bernard", "2025-01-01T00:00:00Z", title: "Older copy")),
            .object(dated("SK-A-11", "  Jan   Steen ", nil)),
        ],
    ]

    private static func dated(_ id: String, _ maker: String?, _ datestamp: String?, title: String? = nil)
        -> ArtObject
    {
        var object = Seeds.object(id, maker, title: title)
        object.datestamp = datestamp
        return object
    }

    private func harvest(store: (any CollectionStore)?) async throws -> (HarvestedCollection, CatalogViewModel) {
        let spy = ExportPresentationLogicSpy()
        let interactor = ExportInteractor(
            source: StubSource(pages: Self.pages), transport: StubTransport(), presenter: spy, store: store)
        let response = try await interactor.harvest(options: HarvestOptions(concurrency: 2))
        let display = CatalogDisplayLogicSpy()
        let presenter = ExportPresenter(thumbnailWidth: 400, catalogDisplay: display, progressDisplay: display)
        return (response, try await presenter.makeViewModel(response: response))
    }

    @Test func `a run staged in the store makes the catalog a run in memory makes`() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteCollectionStore(directory: folder.url, source: "test", collection: "test stub")
        let (staged, stagedCatalog) = try await harvest(store: store)
        let (held, heldCatalog) = try await harvest(store: nil)

        #expect(staged.sections.isEmpty && staged.stored != nil, "the staged run holds no objects")
        #expect(stagedCatalog == heldCatalog)
        #expect(staged.statistics.objects == 6 && held.statistics.objects == 6)
        #expect(staged.statistics.duplicates == 2 && held.statistics.duplicates == 2)
        #expect(staged.statistics.sections == 3 && held.statistics.sections == 3)
        // The later datestamp wins wherever it came; the two spellings of Émile Bernard are one section.
        let steen = try #require(stagedCatalog.sections.first { $0.name == "Jan Steen" })
        #expect(steen.objects.map(\.title) == ["Revised", "Object SK-A-11"])
        let bernard = try #require(stagedCatalog.sections.first { $0.name == "\u{C9}mile Bernard" })
        #expect(bernard.objects.map(\.id) == ["SK-A-2", "SK-A-3"])
        #expect(bernard.objects.first?.title == "Object SK-A-2")
        #expect(stagedCatalog.sections.last?.objects.map(\.id) == ["SK-A-4", "SK-A-10"], "unknown last, in order")
        // And the store keeps what the run made.
        #expect(try store.storedObjects().count == 6)
    }
}
