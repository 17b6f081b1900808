/// Where a collection is kept between runs (the `VitrineStore` module implements it with SQLite): every object
/// as the source last gave it, and the state of its harvests. The Interactor applies the domain rules and hands
/// the store their result; the store never decides what a catalog holds.
package protocol CollectionStore: Sendable {
    /// The database file, for messages.
    var location: String { get }
    /// What the last complete harvest left, and a harvest under way.
    func state() throws(ExportError) -> StoreState
    /// Records the harvest under way before its first request (and again when it has cut its span into windows),
    /// so that a run killed part way resumes it: the same pages, found in the page cache under its identifier.
    func begin(_ harvest: PendingHarvest) throws(ExportError)

    // MARK: The run's collection

    /// Starts the collection a run builds, in a working table beside the stored one: empty (a full harvest), or
    /// laid over the stored collection (an incremental run, or one from the store alone). Returns how many objects
    /// it starts with.
    func startRun(fromStored: Bool) throws(ExportError) -> Int
    /// Applies a page to the run's collection, in order: a version (object or deleted record) whose record
    /// identifier the run does not hold yet is added, replacing a stored one whatever its datestamp; for one the
    /// run holds, `replaces` is given both versions and says whether the new one takes its place. Returns by
    /// how many objects the run's collection grew (negative when it shrank).
    func addToRun(
        _ changes: [RunChange], replaces: (RunVersion, RunVersion) -> Bool
    ) throws(ExportError) -> Int
    /// Makes the run's collection the stored one, in one transaction, and records the harvest's state: all of it
    /// after a full harvest; after an incremental one (`incremental`), only what it added and deleted over the
    /// stored collection. Returns what changed since the last published catalog: this run's changes and those of
    /// runs that stored theirs and failed to publish (`StoreState.unpublished`), which it records.
    func commitRun(incremental: Bool, state: StoreState) throws(ExportError) -> StoreChanges
    /// Records that a catalog of the stored collection was published: no stored change is unpublished.
    func published() throws(ExportError)
    /// The keys of the stored records that `listed` (every key the collection holds now) leaves out.
    func storedKeys(notIn listed: [String]) throws(ExportError) -> [String]
    /// The keys of the stored records that `listed` holds.
    func storedKeys(among listed: [String]) throws(ExportError) -> [String]
    /// The run's collection, for the Interactor to read a section at a time and push to the Presenter.
    func runSections(showing selection: CatalogSelection) throws(ExportError) -> any StoredSections
    /// Removes the store's files when it never completed a harvest: a first run that failed before it stored a
    /// page leaves nothing behind.
    func discardIfNeverHarvested()
}

/// A version of a record a page lists, for the run's collection: an object, or a deleted record (its identifier).
package enum RunChange: Sendable {
    case object(ArtObject, SectionIndex.Place)
    case deletion(String, datestamp: String?, SectionIndex.Place)

    /// What the run's collection keeps of this version.
    package var record: RunVersion {
        switch self {
        case .object(let object, let place): RunVersion(datestamp: object.datestamp, place: place, isObject: true)
        case .deletion(_, let datestamp, let place): RunVersion(datestamp: datestamp, place: place, isObject: false)
        }
    }
}

/// What the run's collection keeps of a version, for the Interactor to decide which of two stays.
package struct RunVersion: Sendable, Equatable {
    package var datestamp: String?
    package var place: SectionIndex.Place
    /// An object, not a deleted record.
    package var isObject: Bool

    package init(datestamp: String?, place: SectionIndex.Place, isObject: Bool = true) {
        self.datestamp = datestamp
        self.place = place
        self.isObject = isObject
    }
}

/// A run's collection kept in the collection store, read by the Interactor a section at a time.
package protocol StoredSections: Sendable {
    /// Every section: its maker (`MakerName.sectionName`; `nil`: no known maker) and how many objects it has, in
    /// no particular order.
    func sections() throws(ExportError) -> [(maker: String?, count: Int)]
    /// The objects of a maker's section, in catalog order (`CatalogOrder`: the store keeps each object's key as
    /// bytes); `count` is how many `sections` said it has.
    func objects(maker: String?, count: Int) throws(ExportError) -> [ArtObject]
    /// The image URLs of the objects whose pictures are bundled with the source (the demo's).
    func bundledImageURLs() throws(ExportError) -> [String]
    /// The name each section files under where its objects' makers have a sort name (the least of them), by its
    /// maker.
    func sortNames() throws(ExportError) -> [String: String]
}

/// The harvest state a store keeps.
package struct StoreState: Sendable, Equatable {
    /// The server's clock (OAI-PMH `responseDate`) when the last complete harvest began: the next incremental
    /// harvest asks for changes from then. `nil` before the first complete harvest or for a source without one.
    package var harvestedAt: String?
    /// A harvest that started and did not finish.
    package var pending: PendingHarvest?
    /// How many complete harvests the store has seen.
    package var harvests: Int
    /// The name the repository gave itself when last asked (OAI-PMH `repositoryName`), for a run from the store.
    package var repositoryName: String?
    /// What complete harvests stored that no published catalog shows yet (a run that failed writing its catalogs):
    /// the next run that publishes counts it as its own.
    package var unpublished: StoreChanges?

    package init(
        harvestedAt: String? = nil, pending: PendingHarvest? = nil, harvests: Int = 0, repositoryName: String? = nil
    ) {
        self.harvestedAt = harvestedAt
        self.pending = pending
        self.harvests = harvests
        self.repositoryName = repositoryName
    }
}

/// A span of datestamps a listing asks for: `from` and `until` inclusive, in the server's own format; an open side
/// (`nil`) is not asked for.
package struct ChangeWindow: Sendable, Equatable {
    package var from: String?
    package var until: String?

    package init(from: String?, until: String?) {
        self.from = from
        self.until = until
    }
}

/// What a run changed in the store: records new, changed (any field) and deleted.
package struct StoreChanges: Sendable, Equatable {
    package var new = 0
    package var changed = 0
    package var deleted = 0

    package init(new: Int = 0, changed: Int = 0, deleted: Int = 0) {
        self.new = new
        self.changed = changed
        self.deleted = deleted
    }

    /// Changes of two runs one after the other, each counted (a record new in one and changed in the next is both).
    package static func + (first: StoreChanges, then: StoreChanges) -> StoreChanges {
        StoreChanges(
            new: first.new + then.new, changed: first.changed + then.changed, deleted: first.deleted + then.deleted)
    }
}

/// A source that can list only the records changed in a window (OAI-PMH `from`/`until`).
package protocol IncrementalSource: CollectionSource {
    /// Whether this configuration can list changes (OAI-PMH with `--until` cannot: the collection is fixed at a
    /// date).
    var listsChanges: Bool { get }
    /// The request that asks the server for its clock (OAI-PMH `Identify`).
    func clockRequest() throws(HarvestFailure) -> SourceRequest
    /// The server's clock and granularity from the answer to `clockRequest`.
    func clock(from response: SourceResponse) throws(HarvestFailure) -> ServerClock
    /// The same collection, listing only the records changed in `window` (deleted ones included).
    func changes(in window: ChangeWindow) -> any CollectionSource
    /// Whether its changes need the keys of the stored records (`changes(in:stored:)`): a source whose list of
    /// changes leaves out records it lists whole (The Met).
    var needsStoredKeys: Bool { get }
    /// The changes, knowing the keys of the records stored.
    func changes(in window: ChangeWindow, stored: Set<String>) -> any CollectionSource
    /// For a collection that is part of a repository (`--set`): every record changed since `from` whatever its
    /// part, as a deleted record when it is not (or no longer) in the collection; `nil` when the collection is the
    /// whole repository. A record that leaves a set is listed only there.
    func leavers(since from: String) -> (any CollectionSource)?
}

extension IncrementalSource {
    package func leavers(since from: String) -> (any CollectionSource)? { nil }
    package var needsStoredKeys: Bool { false }
    package func changes(in window: ChangeWindow, stored: Set<String>) -> any CollectionSource { changes(in: window) }
}

/// A source whose listing can be cut into date windows, each its own chain, harvested in parallel (OAI-PMH
/// selective harvesting: `from`/`until` at the granularity `Identify` states).
package protocol WindowedSource: IncrementalSource {
    /// Chains at once this server is asked for at most, whatever `--concurrency` says (politeness), unless the
    /// user raises it explicitly.
    var chainCeiling: Int { get }
    /// The span the user asked for (`--from`, `--until`), windowed inside it.
    var from: String? { get }
    var until: String? { get }
}

/// What a server says about its clock.
package struct ServerClock: Sendable, Equatable {
    /// The server's time now, as it writes it (`2026-11-23T10:00:00Z`).
    package var now: String
    /// Whether the server takes only days (`YYYY-MM-DD`) in `from`/`until`.
    package var daysOnly: Bool
    /// The oldest datestamp the repository holds (OAI-PMH `earliestDatestamp`), when it says.
    package var earliest: String?
    /// The name the repository gives itself (OAI-PMH `repositoryName`), when it says.
    package var repositoryName: String?
    /// Why a list of changes would not show every deletion (OAI-PMH `deletedRecord` other than `persistent`);
    /// `nil` when it would. Then only a full harvest tells what is gone.
    package var missesDeletions: String?

    package init(
        now: String, daysOnly: Bool, earliest: String? = nil, repositoryName: String? = nil,
        missesDeletions: String? = nil
    ) {
        self.now = now
        self.daysOnly = daysOnly
        self.earliest = earliest
        self.repositoryName = repositoryName
        self.missesDeletions = missesDeletions
    }

    /// A time of the server's in the granularity it accepts: the day alone when it takes only days, else whole
    /// seconds (a fraction of a second, which no repository takes back, dropped).
    package func formatted(_ time: String) -> String {
        Datestamp.normalized(time, daysOnly: daysOnly)
    }
}
