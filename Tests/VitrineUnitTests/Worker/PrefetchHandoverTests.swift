import Testing

@testable import VitrineCore

/// A chain's memory is its pages in flight, not every page it read: a page taken from a prefetch is held by nothing
/// in the chain before it, though the chain's first prefetch is held by its caller to the chain's end.
@Suite struct PrefetchHandoverTests {
    final class Weak: Sendable {
        weak let prefetch: HarvestWorker.Prefetch?

        init(_ prefetch: HarvestWorker.Prefetch) {
            self.prefetch = prefetch
        }
    }

    @Test(arguments: [2, 3, 40])
    func `the pages a chain has taken are freed while its first prefetch is held`(pages: Int) async throws {
        let slots = PrefetchSlots(limit: 1)
        let made = Locked<[Weak]>([])
        // Each page's work makes the prefetch of the next, as `fetchAhead` does.
        @Sendable func prefetch(_ number: Int) -> HarvestWorker.Prefetch {
            let prefetch = HarvestWorker.Prefetch(cursor: .number(number), slots: slots) {
                (SourcePage(records: [], continuation: .next(nil)), number < pages ? prefetch(number + 1) : nil)
            }
            made.withLock { $0.append(Weak(prefetch)) }
            return prefetch
        }
        let first = prefetch(1)
        var next = try await first.value().1
        while let ahead = next { next = try await ahead.value().1 }

        #expect(made.current.count == pages)
        #expect(made.current.dropFirst().allSatisfy { $0.prefetch == nil })
        withExtendedLifetime(first) {}
    }
}
