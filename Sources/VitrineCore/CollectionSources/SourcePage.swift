/// One decoded page: its records, and how to go on.
package struct SourcePage: Sendable, Equatable {
    /// Every record of the page, in page order, each an object or the reason it was left out.
    package var records: [RecordOutcome]
    /// How the harvest continues after this page.
    package var continuation: Continuation
    /// How many objects the API says the whole listing holds, when it says.
    package var reportedTotal: Int?
    /// Things the user should know, e.g. a paging cap that hides the rest of the collection.
    package var notices: [String]
    /// The server's clock when it answered (OAI-PMH `responseDate`), as it writes it: where the next
    /// incremental harvest starts. Never the local clock.
    package var serverTime: String?
    /// Every record the collection holds now, by key, when the page lists them all (The Met's id list in a run
    /// of changes, which names no removed object): a stored record not listed was removed.
    package var listedKeys: [String]?
    /// How many entries the server listed on the page when the source kept fewer as records (the headers of a
    /// set's leavers, most of them still members): a page that listed something is not an empty page.
    package var listed: Int?

    package init(
        records: [RecordOutcome],
        continuation: Continuation,
        reportedTotal: Int? = nil,
        notices: [String] = [],
        serverTime: String? = nil,
        listedKeys: [String]? = nil
    ) {
        self.records = records
        self.continuation = continuation
        self.reportedTotal = reportedTotal
        self.notices = notices
        self.serverTime = serverTime
        self.listedKeys = listedKeys
    }
}

extension SourcePage {
    /// The keys of the page's objects, in page order.
    package var objectKeys: [String] {
        records.compactMap { if case .object(let object) = $0 { object.recordKey.text } else { nil } }
    }

    /// The page's object keys in any order, as one value (`nil` for a page of none): a server that answers a page
    /// again may list its records in another order (ties in a search index).
    package var keySet: Fingerprint? {
        let keys = objectKeys.sorted()
        guard !keys.isEmpty else { return nil }
        var fingerprint = Fingerprint()
        for key in keys { fingerprint.combine(key) }
        return fingerprint
    }
}

extension SourcePage {
    /// What each record of the page is about, in page order: the object's key, else the record's identifier.
    package var recordIDs: [String?] {
        records.map { record in
            switch record {
            case .object(let object): object.recordKey.text
            case .skipped(_, let recordID, _), .deleted(let recordID, _): recordID
            }
        }
    }
}

/// One record of a page.
package enum RecordOutcome: Sendable, Equatable {
    case object(ArtObject)
    /// The record could not be decoded; the reason names what was wrong. When the record's key is known
    /// (`recordID`: an OAI-PMH header), a stored version of it goes too, as a fresh export would not show it.
    case skipped(reason: String, recordID: String? = nil, datestamp: String? = nil)
    /// The source marks the record as deleted (OAI-PMH `status="deleted"`), or as no longer in the collection
    /// harvested (a record that left the `--set`); `recordID` is the identifier the record had (an `ArtObject`'s
    /// `recordID`, else its `id`), `datestamp` when it was deleted. It competes with the record's other versions
    /// like an object does.
    case deleted(recordID: String?, datestamp: String? = nil)
}

/// How a harvest goes on after a page.
package enum Continuation: Sendable, Equatable {
    /// Page numbers: every page up to `lastPage` may be fetched at once. While the last page fetched is
    /// still full (`pageSize` records or more: the server may number from 1, or hold more than it counted),
    /// the next one is fetched too, up to `limit`, the last page the API serves.
    case pageNumbers(lastPage: Int, limit: Int, pageSize: Int)
    /// A chain: the next page, or `nil` at the end. Fetched one after another.
    case next(PageCursor?)
    /// An id list: each object is fetched on its own, in list order, `concurrency` at a time. `next` is the
    /// list's next page, fetched (one after another) before any object; `pageSize` is how many objects count
    /// as one page for `--max-pages`.
    case objects([String], next: PageCursor?, pageSize: Int)
    /// Nothing follows.
    case end
    /// The server no longer knows the token this page was asked with (OAI-PMH `badResumptionToken`), or a chain
    /// resumed from the page cache found the server's list changed; the text says so. The worker starts the list
    /// over once, fetched anew; a second refusal fails the run.
    case expiredToken(String)

    var isExpiredToken: Bool {
        if case .expiredToken = self { true } else { false }
    }
}
