import Foundation
import VitrineCore
import VitrineDisplays
import VitrineHTTP
import VitrineOutput
import VitrineSources

/// Everything one export is built from: the one value the command line, the tests and the benchmark fill in
/// before `ExportScene` wires the parts.
package struct ExportSettings: Sendable {
    /// Which source, where, with which key and filters.
    package var source: SourceConfiguration
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
    package var cardsPerPage: Int
    /// Print nothing but errors and the summary.
    package var quiet: Bool
    /// Where responses are kept between runs.
    package var cache: PageCacheSetting
    /// Where the collection is kept between runs, so re-runs ask only for changes.
    package var store: CollectionStoreSetting
    /// How long a request may take.
    package var timeouts: HTTPTimeouts
    /// Replace files in the output folder that Vitrine did not write (`--force`).
    package var force: Bool
    /// Remove the catalogs of formats not asked for (`--remove-other-formats`); else they stay as they are.
    package var removeOtherFormats = false
    /// Show only the objects whose image is open for reuse (`--open-access-only`).
    package var openAccessOnly = false
    /// What the site calls itself (`--site-title`, `--site-description`).
    package var site = SiteIdentity()
    /// A catalog of at least this many files keeps its old version beside the output folder as the next export's
    /// staging folder (`OutputFolder+Spare.swift`). Tests lower it to see the spare with a small museum.
    package var spareFrom = OutputFolder.spareThreshold

    package init(
        source: SourceConfiguration,
        harvest: HarvestOptions = HarvestOptions(),
        formats: [CatalogFormat] = CatalogFormat.defaults,
        outputDirectory: String = "Output",
        templatesDirectory: String? = nil,
        thumbnailWidth: Int = 400,
        cardsPerPage: Int = ArtistPageNames.defaultCardsPerPage,
        quiet: Bool = false,
        cache: PageCacheSetting = .none,
        store: CollectionStoreSetting = .besideCache,
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        force: Bool = false
    ) {
        self.source = source
        self.harvest = harvest
        self.formats = formats
        self.outputDirectory = outputDirectory
        self.templatesDirectory = templatesDirectory
        self.thumbnailWidth = thumbnailWidth
        self.cardsPerPage = cardsPerPage
        self.quiet = quiet
        self.cache = cache
        self.store = store
        self.timeouts = timeouts
        self.force = force
    }
}

/// Where responses are kept between runs.
package enum PageCacheSetting: Sendable {
    /// No cache: fetch everything, store nothing (`--no-cache`).
    case none
    /// A folder per harvest under way under `directory` (the user's cache folder when `nil`), used as `mode` says.
    case files(directory: String?, mode: CacheMode)
    /// A cache made by the caller (tests with their own clock).
    case custom(any PageCache, mode: CacheMode)
}

/// Where the collection store is.
package enum CollectionStoreSetting: Sendable {
    /// In the page cache's folder, under `stores/`, when the page cache is a folder; none otherwise
    /// (`--no-cache`: every run is full).
    case besideCache
    /// Under `stores/` in this folder (tests).
    case directory(String)
    /// No store.
    case none
}
