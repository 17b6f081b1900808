import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineScene
@testable import VitrineSources

/// What CONTRIBUTING.md promises: a new source is its own adapter plus one registration line, and then
/// `--source` names it, `vitrine sources` lists it and every catalog holds its objects.
@Suite struct AddingASourceTests {
    /// A whole new source, as a contributor would write it in its own folder: a descriptor, a request per page,
    /// a decoder, a `SourceID` and a registration.
    struct GuestbookSource: CollectionSource {
        static let descriptor = SourceDescriptor(
            name: "guestbook", institution: "A guestbook", defaultBaseURL: "https://guestbook.example/api",
            paging: "page numbers from 1", keyVariable: nil, filters: [], summary: "Two pages of signatures.")
        static let registration = SourceRegistration(descriptor: descriptor) { configuration, _ throws(ExportError) in
            let settings = try configuration.settings(for: descriptor, pageSizes: .upTo(10), firstPage: 1)
            return GuestbookSource(baseURL: settings.baseURL)
        }

        var baseURL: URL
        var descriptor: SourceDescriptor { Self.descriptor }
        var firstPage: PageCursor { .number(1) }

        func request(for page: PageCursor) throws(HarvestFailure) -> SourceRequest {
            SourceRequest(url: try QueryString.url(baseURL, adding: [("page", String(try page.pageNumber()))]))
        }

        func decode(_ response: SourceResponse, page: PageCursor) throws(HarvestFailure) -> SourcePage {
            let names = try response.decodeJSON([String].self)
            let number = try page.pageNumber()
            return SourcePage(
                records: names.enumerated().map { offset, name in
                    .object(ArtObject(id: "g-\(number)-\(offset)", title: "Signature \(offset + 1)", maker: name))
                },
                continuation: .pageNumbers(lastPage: 2, limit: 2, pageSize: 100))
        }
    }

    /// Serves two pages of names from memory.
    struct GuestbookTransport: Transport {
        func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
            let page = request.url.query?.hasSuffix("page=1") == true ? #"["Ada", "Ben"]"# : #"["Ada"]"#
            return SourceResponse(status: 200, body: Data(page.utf8))
        }
    }

    @Test func `one registration line makes a new source exportable into every catalog`() async throws {
        let registry = SourceRegistry.standard.adding(GuestbookSource.registration)
        #expect(registry.names.last == "guestbook")
        let run = try await ExportHarness.run(
            SourceConfiguration(source: "guestbook"), registry: registry, transport: GuestbookTransport())
        try CatalogChecks.expectEveryObjectOnce(
            in: run.folder, expected: ["g-1-0": "Ada", "g-1-1": "Ben", "g-2-0": "Ada"])
        #expect(run.summary.summary.hasPrefix("vitrine: guestbook: 2 pages, 3 objects, 2 sections"))
    }

    @Test func `a source nobody registered is refused with the names there are`() async throws {
        let error = await #expect(throws: ExportError.self) {
            _ = try await ExportHarness.run(SourceConfiguration(source: "guestbook"))
        }
        #expect(error?.description.hasPrefix("no source is called 'guestbook'; choose demo, rijksmuseum,") == true)
    }
}
