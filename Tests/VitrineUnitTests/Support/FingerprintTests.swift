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

    /// The definition of fields: a text is its length, then its UTF-8 in little-endian words, the last padded with
    /// zeros; a number is one word.
    private static func fieldReference(_ texts: [[UInt8]], number: Int) -> String {
        var (first, second): (UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142)
        func mix(_ word: UInt64) {
            first = (first ^ word) &* 0x9E37_79B9_7F4A_7C15
            first ^= first >> 32
            second = (second ^ word) &* 0xC2B2_AE3D_27D4_EB4F
            second ^= second >> 29
        }
        for text in texts {
            mix(UInt64(text.count))
            for start in stride(from: 0, to: text.count, by: 8) {
                var word: UInt64 = 0
                for (shift, byte) in text[start..<min(start + 8, text.count)].enumerated() {
                    word |= UInt64(byte) << UInt64(8 * shift)
                }
                mix(word)
            }
        }
        mix(UInt64(bitPattern: Int64(number)))
        return Fingerprint.hex(first, second)
    }

    @Test func `fields hash a word at a time, as their definition does`() {
        let texts = [
            "", "a", "Caf\u{E9} \u{2116} 1", "12345678", "123456789", String(repeating: "Rembrandt ", count: 9),
        ]
        var fingerprint = Fingerprint()
        for text in texts { fingerprint.combine(field: text) }
        fingerprint.combine(field: -2)
        #expect(fingerprint.description == Self.fieldReference(texts.map { Array($0.utf8) }, number: -2))
    }

    @Test func `where one field ends and the next begins changes the fingerprint, whatever the bytes`() {
        func fingerprint(_ fields: [String]) -> Fingerprint {
            var fingerprint = Fingerprint()
            for field in fields { fingerprint.combine(field: field) }
            return fingerprint
        }
        #expect(fingerprint(["ab", "c"]) != fingerprint(["a", "bc"]))
        #expect(fingerprint(["abc", ""]) != fingerprint(["abc"]))
        // A field of eight bytes that reads like a shorter field's padded word, and that shorter field.
        #expect(fingerprint(["abc\u{0}\u{0}\u{0}\u{0}\u{3}", ""]) != fingerprint(["abc", ""]))
        #expect(fingerprint(["abcdefgh"]) != fingerprint(["abcdefg", "h"]))
        // Fields and bytes are different definitions: a field is not its text byte by byte.
        var bytes = Fingerprint()
        bytes.combine("abc")
        #expect(bytes != fingerprint(["abc"]))
    }
}
