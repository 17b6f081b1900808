/// What the user asked for: built by the CLI, read by the scene.
package struct ExportRequest: Sendable, Equatable {
    /// How to walk the source's pages.
    package var harvest: HarvestOptions
    /// Which catalogs to write.
    package var formats: [CatalogFormat]
    /// Where the catalogs go.
    package var outputDirectory: String
    /// A folder of the user's own templates, overriding the bundled ones by name.
    package var templatesDirectory: String?
    /// Requested thumbnail width in pixels.
    package var thumbnailWidth: Int
    /// Cards on one page of an artist in the gallery.
    package var cardsPerPage: Int = 200
    /// Print nothing but errors and the summary.
    package var quiet: Bool

    package init(
        harvest: HarvestOptions = HarvestOptions(),
        formats: [CatalogFormat] = CatalogFormat.allCases,
        outputDirectory: String = "Output",
        templatesDirectory: String? = nil,
        thumbnailWidth: Int = 400,
        quiet: Bool = false
    ) {
        self.harvest = harvest
        self.formats = formats
        self.outputDirectory = outputDirectory
        self.templatesDirectory = templatesDirectory
        self.thumbnailWidth = thumbnailWidth
        self.quiet = quiet
    }
}

/// The catalogs Vitrine writes.
package enum CatalogFormat: String, Sendable, CaseIterable, Equatable {
    case html, markdown, csv
}

/// How the harvest walks a source.
package struct HarvestOptions: Sendable, Equatable {
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

    package init(
        maxPages: Int? = nil,
        concurrency: Int = 4,
        retries: Int = 5,
        requestsPerSecond: Double? = nil,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.maxPages = maxPages
        self.concurrency = concurrency
        self.retries = retries
        self.requestsPerSecond = requestsPerSecond
        self.jitter = jitter
    }

    package static func == (lhs: HarvestOptions, rhs: HarvestOptions) -> Bool {
        lhs.maxPages == rhs.maxPages && lhs.concurrency == rhs.concurrency && lhs.retries == rhs.retries
            && lhs.requestsPerSecond == rhs.requestsPerSecond
    }
}
