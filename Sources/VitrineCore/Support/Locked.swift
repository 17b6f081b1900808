import Foundation

/// A value behind a lock: the one way Vitrine shares mutable state between tasks and threads.
///
/// Each use keeps its own state type and reads or changes it in one `withLock` call, so no lock is held across
/// an `await` and no state is read half-changed. The state is `Sendable`: what it holds may be handed to
/// another thread once read.
package final class Locked<State: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, holding the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// A copy of the state.
    package var current: State {
        withLock { $0 }
    }
}
