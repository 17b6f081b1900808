import VitrineCore

/// Runs `body` for each item as child tasks side by side and, once every one has stopped, throws the first
/// failure. An item whose task has not begun when one fails is skipped.
func sideBySide<Item: Sendable>(
    _ items: some Sequence<Item>, _ body: @escaping @Sendable (Item) async throws(ExportError) -> Void
) async throws(ExportError) {
    let first = Locked<ExportError?>(nil)
    await withTaskGroup(of: Void.self) { group in
        for item in items {
            group.addTask {
                guard first.current == nil else { return }
                do throws(ExportError) {
                    try await body(item)
                } catch {
                    first.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
    }
    if let error = first.current { throw error }
}
