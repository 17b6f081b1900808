/// When to try a failed request again: transient failures (throttling, 5xx, no response) are retried up to
/// `retries` times with exponential backoff and jitter, or after the server's `Retry-After` when it sent one.
package struct RetryPolicy: Sendable {
    /// Retries after the first attempt.
    package var retries: Int
    /// The first backoff, in seconds; doubled on each retry.
    package var baseDelay: Double
    /// The longest backoff, in seconds.
    package var maximumDelay: Double
    /// The longest `Retry-After` worth waiting for; a longer one fails the request at once.
    package var maximumRetryAfter: Double
    /// A number in 0…1 that spreads retries out; random by default, fixed in tests.
    package var jitter: @Sendable () -> Double

    package init(
        retries: Int = 5,
        baseDelay: Double = 1,
        maximumDelay: Double = 60,
        maximumRetryAfter: Double = 300,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.jitter = jitter
    }

    /// The pause before retry number `retry` (1-based) after `failure`; `nil` when it should not be retried. A server
    /// that cannot be reached gets one short retry: a refused connection is refused again in a millisecond.
    package func delay(beforeRetry retry: Int, after failure: HarvestFailure) -> Duration? {
        guard failure.isTransient, retry <= retries else { return nil }
        if case .unreachable = failure {
            return retry == 1 ? .milliseconds(Int64((min(baseDelay, 1) * 1000).rounded())) : nil
        }
        if let asked = failure.retryAfter {
            return asked <= maximumRetryAfter ? .milliseconds(Int64((asked * 1000).rounded(.up))) : nil
        }
        let exponential = min(maximumDelay, baseDelay * Double(1 << min(retry - 1, 20)))
        // "Equal jitter": half the backoff fixed, half random, so retries neither stampede nor vanish.
        let seconds = exponential / 2 + exponential / 2 * min(1, max(0, jitter()))
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

/// Waits. The real one sleeps; tests record the pauses instead, so no test waits on a clock.
package protocol HarvestSleeper: Sendable {
    func sleep(for duration: Duration) async throws
}

/// Sleeps on the continuous clock.
package struct TaskSleeper: HarvestSleeper {
    package init() {}

    package func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

/// Spaces requests to at most `requestsPerSecond`, across every concurrent task of a harvest.
package actor RequestPacer {
    private let interval: Duration
    private var nextSlot: ContinuousClock.Instant?

    package init(requestsPerSecond: Double) {
        self.interval = .milliseconds(Int64((1000 / max(requestsPerSecond, 0.001)).rounded()))
    }

    /// Reserves the next free slot and returns how long to wait for it.
    package func reserve(now: ContinuousClock.Instant = .now) -> Duration {
        let slot = max(nextSlot ?? now, now)
        nextSlot = slot + interval
        return slot - now
    }
}
