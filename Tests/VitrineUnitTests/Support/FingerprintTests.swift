import Foundation
import Testing

@testable import VitrineCore

/// Fingerprints name page-cache entries and stores, and sit in every output manifest: they must come out the same
/// on every run, machine and version, whichever way the bytes are fed in.
@Suite struct FingerprintTests {
    /// The definition: two FNV-1a lanes, a byte at a time.
    private static func reference(_ bytes: [UInt8]) -> String {
        var (first, second): (UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142)
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 ^ (second >> 29)
        }
        return Fingerprint.hex(first, second)
    }

    @Test func `text, numbers and bytes hash as the byte-at-a-time definition does`() {
        var fingerprint = Fingerprint()
        fingerprint.combine("Café № 1")
        fingerprint.combine(-2)
        fingerprint.combine(bytes: Data([0, 1, 0xFF]))
        fingerprint.combine(byte: 7)
        let number = withUnsafeBytes(of: Int64(-2).littleEndian) { Array($0) }
        let count = withUnsafeBytes(of: Int64(3).littleEndian) { Array($0) }
        let expected = Self.reference(Array("Café № 1".utf8) + [0xFF] + number + count + [0, 1, 0xFF] + [7])
        #expect(fingerprint.description == expected)
        // The empty text is its terminator alone.
        var empty = Fingerprint()
        empty.combine("")
        #expect(empty.description == Self.reference([0xFF]))
    }

    @Test func `bytes fed in pieces make the fingerprint of the whole`() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var whole = Fingerprint()
        bytes.withUnsafeBytes { whole.combine(each: $0) }
        var pieces = Fingerprint()
        for start in stride(from: 0, to: bytes.count, by: 999) {
            bytes[start..<min(start + 999, bytes.count)].withUnsafeBytes { pieces.combine(each: $0) }
        }
        #expect(whole == pieces)
        #expect(whole.description == Self.reference(bytes))
    }
}
