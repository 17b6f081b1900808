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
    package var source: String?
    /// `full`, `incremental` or `offline` (from the collection store alone).
    package var run: String?
    /// The last harvest an incremental run asked for changes since.
    package var changesSince: String?
    package var pages = 0
    package var objects = 0
    package var sections = 0
    package var duplicates = 0
    package var skipped = 0
    /// Objects harvested but not shown (`--open-access-only`).
    package var leftOut = 0
    /// What the run changed in the collection store; `nil` without one.
    package var new: Int?
    package var changed: Int?
    /// Objects the run took out of the collection store; without one, records the source marked as deleted.
    package var deleted = 0
    package var requests = 0
    package var cacheHits = 0
    package var retries = 0
    package var filesRendered = 0
    package var filesKept = 0
    package var seconds = 0.0
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
