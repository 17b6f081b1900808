/// How a long OAI-PMH list may be cut into date windows, as the Interactor allows it.
package struct Windowing: Sendable {
    /// Chains at once.
    package var chains: Int
    /// Whether the user asked for windows (`--chains`): then a list whose size is unknown is cut too.
    package var explicit: Bool
    /// An incremental run's listing (open after `from`) is cut between `from` and `until`, the server's clock when
    /// the run began; no `Identify` is needed. `nil` for a full run.
    package var changes: ChangeWindow?
    /// The span this harvest was cut in by a run that did not finish: cut the same way again, so its pages are
    /// found in the page cache.
    package var planned: ChangeWindow?
    /// The server's clock, when the run has asked for it already: not asked again.
    package var clock: ServerClock?
    /// Keeps a full run's span before its first window is asked for (the collection store).
    package var record: @Sendable (ChangeWindow) -> Void

    package init(
        chains: Int, explicit: Bool, clock: ServerClock? = nil, changes: ChangeWindow? = nil,
        planned: ChangeWindow? = nil, record: @escaping @Sendable (ChangeWindow) -> Void = { _ in }
    ) {
        self.chains = chains
        self.explicit = explicit
        self.changes = changes
        self.planned = planned
        self.clock = clock
        self.record = record
    }

    /// Whether a list whose first page is this is long enough to cut: more than ten pages (a short list is one
    /// chain), or of unknown length when the user asked for windows.
    func worthWindows(_ first: SourcePage) -> Bool {
        guard chains > 1, case .next(.some) = first.continuation else { return false }
        guard let total = HarvestWorker.size(of: first) else { return explicit }
        return total > 10 * max(first.records.count, 1)
    }

    /// A window worth a chain of its own: a quarter of a chain's share, and at least ten pages.
    func target(total: Int?, pageSize: Int) -> Int {
        max(1, (total ?? 0) / (4 * chains), 10 * pageSize)
    }
}
