/// What the Interactor needs to run an export: how to walk the source. Everything else the user asked for
/// (formats, output folder, templates, thumbnail width) is wired into the scene's parts by `ExportScene`.
package struct ExportRequest: Sendable {
    /// How to walk the source's pages.
    package var harvest: HarvestOptions
    /// Which of the harvested objects the catalogs show (`--open-access-only`). The store keeps every one.
    package var selection: CatalogSelection

    package init(harvest: HarvestOptions = HarvestOptions(), selection: CatalogSelection = .all) {
        self.harvest = harvest
        self.selection = selection
    }
}

/// Which objects of a collection a catalog shows.
package enum CatalogSelection: Sendable, Equatable {
    case all
    /// Those whose rights open their image for reuse.
    case openAccess
    /// Those whose source states their rights, open or not.
    case withRights

    /// Whether the catalog shows `object`.
    package func shows(_ object: ArtObject) -> Bool {
        switch self {
        case .all: true
        case .openAccess: object.details.rights?.isOpen == true
        case .withRights: object.details.rights != nil
        }
    }
}

/// The catalogs Vitrine writes.
package enum CatalogFormat: String, Sendable, CaseIterable, Equatable {
    case html, markdown, csv, jsonl

    /// What an export writes unless told otherwise: JSON Lines is asked for by name.
    package static let defaults: [CatalogFormat] = [.html, .markdown, .csv]

    /// The file that holds the format's catalog, or opens it.
    package var fileName: String {
        switch self {
        case .html: "index.html"
        case .markdown: "catalog.md"
        case .csv: "collection.csv"
        case .jsonl: "collection.jsonl"
        }
    }
}

/// How the harvest walks a source.
package struct HarvestOptions: Sendable {
    /// Stop after this many pages (all when `nil`).
    package var maxPages: Int?
    /// Pages (or objects) fetched at once.
    package var concurrency: Int
    /// Retries of a throttled, failing (5xx) or dropped request before the harvest fails.
    package var retries: Int
    /// Requests per second at most; the source's own ceiling when `nil`; none when 0.
    package var requestsPerSecond: Double?
    /// Spreads retry pauses (0…1); random unless a test fixes it.
    package var jitter: @Sendable () -> Double
    /// Harvest every page even where the collection store could ask for the changes alone (`--full`).
    package var full: Bool
    /// OAI-PMH date windows harvested at once, when the user says (`--chains`): may exceed the repository's
    /// politeness ceiling. `nil`: `concurrency`, at most the ceiling.
    package var chains: Int?

    package init(
        maxPages: Int? = nil,
        concurrency: Int = 4,
        retries: Int = 5,
        requestsPerSecond: Double? = nil,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        full: Bool = false,
        chains: Int? = nil
    ) {
        self.maxPages = maxPages
        self.concurrency = concurrency
        self.retries = retries
        self.requestsPerSecond = requestsPerSecond
        self.jitter = jitter
        self.full = full
        self.chains = chains
    }
}
