import Foundation

/// Named moments where a test may have the process killed (`VITRINE_CRASH_AT=store-commit`), as a power cut or
/// `kill -9` would, to check that the next run puts everything right. Nothing happens unless the variable names the
/// point.
package enum CrashPoint: String, Sendable, CaseIterable {
    /// Inside the store's transaction, its writes made and not committed.
    case storeCommit = "store-commit"
    /// The store committed, the harvest's pages not yet dropped.
    case harvestCommitted = "harvest-committed"
    /// Every file staged and the manifest written, before the exchange.
    case outputStaged = "output-staged"
    /// Right after the exchange: the new catalog live, the old one beside it.
    case outputExchanged = "output-exchanged"
    /// The old catalog removed or kept as the spare, the lock not yet let go.
    case outputCommitted = "output-committed"

    private static let chosen = ProcessInfo.processInfo.environment["VITRINE_CRASH_AT"].flatMap(CrashPoint.init)

    /// Kills the process here when this is the point chosen.
    package func reach() {
        if Self.chosen == self { kill(getpid(), SIGKILL) }
    }
}
