/// What a harvest did: counts for the summary line, and the warnings a user should read.
package struct ExportStatistics: Sendable, Equatable {
    /// Pages (or per-object responses) fetched and decoded.
    package var pages = 0
    /// Objects kept, each once.
    package var objects = 0
    /// Artist sections, the unknown-artist section included.
    package var sections = 0
    /// Records seen again under an id already kept.
    package var duplicates = 0
    /// Records that could not be decoded and were left out.
    package var skipped = 0
    /// Records the source marked as deleted.
    package var deleted = 0
    /// Records of the catalog a `--set` night found gone from the set: moved out of it, or deleted with headers that
    /// no longer name it (the two cannot be told apart).
    package var goneFromSet = 0
    /// Objects harvested but not shown, their image not open for reuse (`--open-access-only`).
    package var leftOut = 0
    /// How many objects the API said the collection holds, when it says.
    package var reportedTotal: Int?
    /// Set when a whole list read fewer objects than the API reported: the summary line says so even `--quiet`.
    package var readShortOfReported = false
    /// One warning per skipped record, naming page and position.
    package var warnings: [RecordWarning] = []
    /// Things the user should know about the harvest as a whole (a paging cap reached, a short count).
    package var notices: [String] = []
    /// Wall-clock seconds the export took.
    package var seconds: Double = 0
    /// Responses fetched from the network.
    package var requests = 0
    /// Responses read from the page cache instead.
    package var cacheHits = 0
    /// Requests sent again after a transient failure.
    package var retries = 0
    /// What kind of run it was: full, incremental, or from the store alone.
    package var run: HarvestRun = .full
    /// What the run changed in the collection store; `nil` without a store.
    package var changes: StoreChanges?

    package init() {}
}

/// How a run came by its objects.
package enum HarvestRun: Sendable, Equatable {
    /// Every page of the source.
    case full
    /// Only the records changed in a window, applied to the stored collection.
    case incremental(ChangeWindow)
    /// The stored collection alone (`--offline`): no request.
    case stored
}

/// A record that was skipped, and where it was.
package struct RecordWarning: Sendable, Equatable, CustomStringConvertible {
    /// The page as the API numbers it (or the object id for per-object sources).
    package var page: String
    /// 1-based position of the record in its page.
    package var position: Int
    package var reason: String

    package var description: String { "page \(page), record \(position): \(reason)" }
}

/// Where a harvest stands, reported while pages arrive.
package struct HarvestProgress: Sendable, Equatable {
    package var source: String
    package var pages: Int
    package var objects: Int
    /// The collection's size as the API reports it, when it does.
    package var reportedTotal: Int?
    /// Seconds since the harvest began.
    package var elapsed: Double
    package var retries: Int
    package var cacheHits: Int
    /// The date windows of a windowed OAI-PMH harvest, as they stand.
    package var windows: WindowCounts?

    package init(
        source: String, pages: Int, objects: Int, reportedTotal: Int?, elapsed: Double, retries: Int, cacheHits: Int,
        windows: WindowCounts? = nil
    ) {
        self.source = source
        self.pages = pages
        self.objects = objects
        self.reportedTotal = reportedTotal
        self.elapsed = elapsed
        self.retries = retries
        self.cacheHits = cacheHits
        self.windows = windows
    }
}

/// A pause the harvest is making before it asks again, reported while it waits so the user is never left
/// wondering (a server gone silent, throttling, an outage).
package struct HarvestWait: Sendable, Equatable {
    package var source: String
    /// The page as the API numbers it.
    package var page: String
    /// Why it waits: the last failure, in the user's words.
    package var reason: String
    package var seconds: Double
    /// Which retry comes after the pause (1-based), and how many are allowed.
    package var retry: Int
    package var retries: Int
}
