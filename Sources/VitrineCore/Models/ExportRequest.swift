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

    package init(maxPages: Int? = nil, concurrency: Int = 4) {
        self.maxPages = maxPages
        self.concurrency = concurrency
    }
}
