import Foundation
import VitrineCore

/// The bundled demo collection: an invented collection of 320 objects by 34 makers in the Rijksmuseum
/// collection API's shape, quirks included, read through the same source and paging code as the real API.
/// Needs no network and no key. `Scripts/make-demo-collection.py` wrote its pages.
package enum DemoCollection {
    /// Objects per page file.
    package static let pageSize = 25
    /// Objects in the collection, as the pages' `count` says.
    package static let objectCount = 320
    /// The demo's pages are served from memory under this made-up base URL.
    package static let baseURL = "vitrine-demo://collection"

    package static let descriptor = SourceDescriptor(
        name: SourceID.demo.rawValue,
        institution: "Vitrine demo",
        defaultBaseURL: baseURL,
        paging: "page numbers, \(pageSize) a page (bundled, in the Rijksmuseum collection API's shape)",
        keyVariable: nil,
        filters: [],
        summary: "An invented collection of \(objectCount) objects, bundled: no network, no key. The default.",
        speculativePaging: true,
        isBundled: true
    )

    /// The legacy Rijksmuseum source, pointed at the bundled pages, with the bundled pictures.
    package static func source(_ configuration: SourceConfiguration) throws(ExportError) -> any CollectionSource {
        if let pageSize = configuration.pageSize, pageSize != Self.pageSize {
            throw ExportError(
                .configuration("the demo's pages hold \(Self.pageSize) objects; --page-size is for API sources"),
                source: descriptor.name
            )
        }
        try configuration.refuseFilters(except: [], source: descriptor.name)
        if configuration.baseURL != nil {
            throw ExportError(
                .configuration("the demo is bundled and takes no --base-url; pick an API with --source"),
                source: descriptor.name
            )
        }
        guard let url = URL(string: baseURL) else {
            throw ExportError(.configuration("bad demo base URL"), source: descriptor.name)
        }
        return DemoSource(
            pages: RijksmuseumLegacySource(
                baseURL: url, culture: "en", key: nil, pageSize: pageSize, descriptor: descriptor))
    }

    /// Serves the bundled page files.
    package static func transport() -> any Transport { DemoTransport() }

    /// `--source demo`, the default: its pages come from the binary, not the network.
    package static let registration = SourceRegistration(descriptor: descriptor) {
        configuration, _ throws(ExportError) in
        (try source(configuration), transport())
    }
}

/// Answers `?p=N` with the bundled page N (counting from 0, as the API's docs do); past the last page, an
/// empty page, as the API does.
struct DemoTransport: Transport {
    func fetch(_ request: SourceRequest) async throws(HarvestFailure) -> SourceResponse {
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let page = items.first(where: { $0.name == "p" })?.value.flatMap(Int.init), page >= 0 else {
            return SourceResponse(status: 400, body: Data("\"Missing page\"".utf8))
        }
        let pages = DemoPages.all
        if page < pages.count {
            return SourceResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(pages[page]))
        }
        let empty =
            #"{"elapsedMilliseconds":0,"count":\#(DemoCollection.objectCount),"countFacets":{},"artObjects":[],"facets":[]}"#
        return SourceResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(empty.utf8))
    }
}

extension SourceID {
    package static let demo: SourceID = "demo"
}
