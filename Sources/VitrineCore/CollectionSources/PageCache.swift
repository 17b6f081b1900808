/// Where the pages of harvests under way are kept, so that a run cut off part way resumes its harvest instead of
/// starting over: one set of pages per harvest, named by the harvest's identifier (which the collection store
/// records), dropped when the harvest completes. A completed harvest's pages never answer a new request. The file
/// implementation lives in `VitrineSources`.
package protocol PageCache: Sendable {
    /// The pages of one harvest.
    func pages(ofHarvest harvest: String) -> any HarvestPages
    /// Forgets a harvest's pages: it completed, or was given up for a new one.
    func drop(harvest: String)
}

/// The pages one harvest has fetched so far, by key: the request without its secrets, and for the pages of a
/// resumption-token chain the chain's first request too (a token alone may repeat from one chain to the next).
package protocol HarvestPages: Sendable {
    /// The stored response for `key`, else `nil`.
    func response(for key: String) -> SourceResponse?
    /// Whether a response is stored for `key`, without reading it.
    func contains(_ key: String) -> Bool
    /// Stores a response that decoded well. Written atomically: a run killed mid-write leaves no torn entry.
    func store(_ response: SourceResponse, for key: String)
    /// Forgets one page (a stored page that no longer decodes).
    func remove(_ key: String)
    /// Whether the harvest has stored no page.
    var isEmpty: Bool { get }
}

/// A harvest under way, as the collection store records it before the harvest's first request: which pages are
/// its own, what it lists, and what a run that resumes it must ask for again.
package struct PendingHarvest: Sendable, Equatable {
    /// Names the harvest's pages in the page cache: random, never reused.
    package var id: String
    /// Where an incremental harvest's changes start (the last complete harvest's start); `nil`: a full harvest.
    package var changesFrom: String?
    /// The server's clock when an incremental harvest began: where the next one starts.
    package var startedAt: String?
    /// The span a full harvest's date windows were cut in, kept so that a resumed run cuts the same windows.
    package var span: ChangeWindow?

    package init(id: String, changesFrom: String? = nil, startedAt: String? = nil, span: ChangeWindow? = nil) {
        self.id = id
        self.changesFrom = changesFrom
        self.startedAt = startedAt
        self.span = span
    }

    /// A new harvest's identifier: 128 random bits in hex.
    package static func newID() -> String {
        RandomID.hex(words: 2)
    }
}

/// What the user asked of the page cache and the collection store.
package enum CacheMode: Sendable, Equatable {
    /// Resume the harvest under way, if there is one.
    case use
    /// Start a new harvest even when one is under way (`--refresh`).
    case refresh
    /// Make the catalog from the collection store, with no request (`--offline`).
    case offline
}
