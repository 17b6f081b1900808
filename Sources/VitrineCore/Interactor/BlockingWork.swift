import Dispatch

/// Work that blocks a thread (the displays write files and wait for their queues) runs on a Dispatch thread while
/// its async caller awaits it: the concurrency pool has a thread per core, and one parked there stalls every task.
package enum BlockingWork {
    package static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Swift.Result { try work() })
            }
        }
    }
}

/// A value handed from one thread to another once: whoever takes it owns it, and the handover keeps no copy.
package final class Handover<Value: Sendable>: Sendable {
    private let value: Locked<Value?>

    package init(_ value: consuming Value) {
        self.value = Locked(value)
    }

    /// The value, the first time; `nil` after.
    package func take() -> Value? {
        value.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
