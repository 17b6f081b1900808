/// What one run did, as values for a scheduler's log or monitoring (`--summary-json`): the summary line's figures,
/// the files written, and how the run ended.
package struct RunReport: Sendable, Equatable, Codable {
    /// `running` (written as the export starts: a run killed outright leaves it so), `done`, `failed` or
    /// `interrupted`.
    package var status = "done"
    /// The process's exit status: 0 done, 1 failed, 64 a usage mistake, 75 worth trying again later, 130
    /// interrupted; none while running.
    package var exitStatus: Int32? = 0
    /// The error line, when the run failed.
    package var error: String?
    /// The summary line, when the run got that far.
    package var summary: String?
    // The figures, from here to `seconds`, only once the run got as far as its summary: a run that failed or was
    // interrupted before it says nothing rather than 0 retries or 0 pages.
    package var source: String?
    /// `full`, `incremental` or `offline` (from the collection store alone).
    package var run: String?
    /// The last harvest an incremental run asked for changes since.
    package var changesSince: String?
    package var pages: Int?
    package var objects: Int?
    package var sections: Int?
    package var duplicates: Int?
    package var skipped: Int?
    /// Objects harvested but not shown (`--open-access-only`).
    package var leftOut: Int?
    /// What the run changed in the collection store; `nil` without one.
    package var new: Int?
    package var changed: Int?
    /// Objects the run took out of the collection store; without one, records the source marked as deleted.
    package var deleted: Int?
    /// Records the source deleted: marked so in what it sent, or gone from its whole list of ids.
    package var markedDeleted: Int?
    /// Records of the catalog a `--set` night found gone from the set (moved out of it, or deleted).
    package var goneFromSet: Int?
    package var requests: Int?
    package var cacheHits: Int?
    package var retries: Int?
    package var filesRendered: Int?
    package var filesKept: Int?
    package var seconds: Double?
    package var warnings: [String] = []
    package var notices: [String] = []

    package init() {}

    /// A run under way, or one that ended before its summary: failed or interrupted.
    package init(status: String, exitStatus: Int32?, error: String?) {
        self.status = status
        self.exitStatus = exitStatus
        self.error = error
    }
}
