import CAllocatorTuning
import Foundation
import Testing

/// `vitrine export` tells glibc's allocator to give freed memory back (issue 13, item 5). A C function that checks
/// for glibc before any header defines `__GLIBC__` compiles to nothing and changes nothing: this fails then.
@Suite struct AllocatorTuningTests {
    @Test func `glibc takes both settings`() {
        #if canImport(Glibc)
            #expect(vitrine_tune_allocator(Int32(ProcessInfo.processInfo.activeProcessorCount)) == 1)
        #else
            #expect(vitrine_tune_allocator(2) == 0)
        #endif
    }
}
