import VitrineCore

/// The first failure of work done side by side: later ones are dropped, and work not begun by then is skipped.
final class FirstFailure: Sendable {
    private let first = Locked<ExportError?>(nil)

    /// Runs `body` unless a failure is kept already; keeps its failure if it is the first.
    func run(_ body: () async throws(ExportError) -> Void) async {
        guard first.current == nil else { return }
        do throws(ExportError) {
            try await body()
        } catch {
            first.withLock { if $0 == nil { $0 = error } }
        }
    }

    /// Throws the failure kept, if any.
    func rethrow() throws(ExportError) {
        if let error = first.current { throw error }
    }
}

/// Runs `body` for each item as child tasks side by side and, once every one has stopped, throws the first
/// failure. An item whose task has not begun when one fails is skipped.
func sideBySide<Item: Sendable>(
    _ items: some Sequence<Item>, _ body: @escaping @Sendable (Item) async throws(ExportError) -> Void
) async throws(ExportError) {
    let first = FirstFailure()
    await withTaskGroup(of: Void.self) { group in
        for item in items {
            group.addTask { await first.run { () async throws(ExportError) in try await body(item) } }
        }
    }
    try first.rethrow()
}
