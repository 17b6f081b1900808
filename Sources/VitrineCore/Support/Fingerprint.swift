import Foundation

/// 128 bits that say what something was made from, the same on every run and machine (Swift's `Hasher` is
/// seeded per process; this is not): two 64-bit FNV-1a lanes with different bases. The output manifest keeps one
/// per file (the templates, the Vitrine version and the page's context; or a file's bytes), so a re-run keeps a
/// file that would come out the same instead of rendering it again; the collection store and the page cache name
/// their files by one. Two lanes in registers, not a library hash: a night combines a few fields of every object,
/// and a buffered SHA-256 or XXH3 makes nights slower (docs/PERFORMANCE.md).
package struct Fingerprint: Sendable, Hashable, CustomStringConvertible {
    private var first: UInt64 = 0xcbf2_9ce4_8422_2325
    private var second: UInt64 = 0x6c62_272e_07bb_0142

    package init() {}

    /// The first of its two lanes: a 64-bit key for a set of many names.
    package var first64: UInt64 { first }

    /// Reads 32 hex digits from bytes (a manifest line), without making a string.
    package init?(hex bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var lanes: (UInt64, UInt64) = (0, 0)
        for (index, byte) in bytes.enumerated() {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if index < 16 {
                lanes.0 = lanes.0 << 4 | UInt64(digit)
            } else {
                lanes.1 = lanes.1 << 4 | UInt64(digit)
            }
        }
        (first, second) = lanes
    }

    /// Writes the 32 hex digits `description` writes at `address` (a manifest writes one a line into its buffer:
    /// appended a digit at a time, the array's capacity would be checked 32 times a line).
    package func writeHex(to address: UnsafeMutablePointer<UInt8>) {
        Self.writeHex(first, second, to: address)
    }

    package var description: String {
        Self.hex(first, second)
    }

    /// Two 64-bit values as 32 lower-case hex digits, the first one's first (what `%016llx%016llx` writes).
    package static func hex(_ first: UInt64, _ second: UInt64) -> String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            if let address = buffer.baseAddress { writeHex(first, second, to: address) }
            return 32
        }
    }

    /// `hex`'s 32 digits, written at `address`.
    private static func writeHex(_ first: UInt64, _ second: UInt64, to address: UnsafeMutablePointer<UInt8>) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            let shift = UInt64(60 - 4 * index)
            address[index] = digits.utf8Start[Int((first >> shift) & 0xF)]
            address[16 + index] = digits.utf8Start[Int((second >> shift) & 0xF)]
        }
    }

    package mutating func combine(byte: UInt8) {
        Self.mix(byte, into: &first, &second)
    }

    /// Bytes one after the other, as `combine(byte:)` on each, the lanes held in registers meanwhile rather than
    /// stored after every byte: a file hashed as it is written passes through here whole.
    package mutating func combine(each bytes: UnsafeRawBufferPointer) {
        var (first, second) = (self.first, self.second)
        for byte in bytes { Self.mix(byte, into: &first, &second) }
        (self.first, self.second) = (first, second)
    }

    /// One byte into the two lanes: the definition of the fingerprint.
    @inline(__always)
    private static func mix(_ byte: UInt8, into first: inout UInt64, _ second: inout UInt64) {
        let prime: UInt64 = 0x100_0000_01b3
        first = (first ^ UInt64(byte)) &* prime
        second = (second ^ UInt64(byte)) &* prime ^ (second >> 29)
    }

    package mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { bytes in combine(each: UnsafeRawBufferPointer(bytes)) }
        // A terminator: `ab` + `c` and `a` + `bc` differ.
        combine(byte: 0xFF)
    }

    /// A file's bytes.
    package mutating func combine(bytes data: some ContiguousBytes) {
        data.withUnsafeBytes { buffer in
            combine(buffer.count)
            combine(each: buffer)
        }
    }

    /// Another fingerprint's 16 bytes (a list element's, into its page's).
    package mutating func combine(_ other: Fingerprint) {
        withUnsafeBytes(of: other.first.littleEndian) { combine(each: $0) }
        withUnsafeBytes(of: other.second.littleEndian) { combine(each: $0) }
    }

    /// Its 16 bytes, little-endian, first lane first (a fragment index's key).
    package func append(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: first.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: second.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Reads the 16 bytes `append(to:)` writes; `nil` when there are fewer.
    package init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 16 else { return nil }
        first = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        second = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    package mutating func combine(_ number: Int) {
        withUnsafeBytes(of: UInt64(bitPattern: Int64(number)).littleEndian) { combine(each: $0) }
    }

    // MARK: Fields, a word at a time

    /// A value a page or a fragment shows (a title, a URL), eight bytes at a step: its length, then its UTF-8 in
    /// little-endian words, the last one padded with zeros. The length first makes the words of a run of fields
    /// say where each field ends, whatever bytes a server put in them.
    ///
    /// For the fingerprints only the output folder keeps (a page's inputs, a card's or a line's key), which a night
    /// works out for every object three times over, so that a step takes a word rather than a byte. They
    /// start from the templates' fingerprint, which holds Vitrine's version, so no other version ever compares
    /// them. The page cache's and the store's names stay byte by byte (`combine(_:)`): their files outlive versions.
    package mutating func combine(field text: String) {
        var text = text
        text.withUTF8 { bytes in combine(words: UnsafeRawBufferPointer(bytes)) }
    }

    /// A number a page or a fragment shows, in one step (see `combine(field:)`).
    package mutating func combine(field number: Int) {
        Self.mix(word: UInt64(bitPattern: Int64(number)), into: &first, &second)
    }

    /// Bytes as `combine(field:)` takes a text's.
    package mutating func combine(words bytes: UnsafeRawBufferPointer) {
        var (first, second) = (self.first, self.second)
        Self.mix(word: UInt64(bytes.count), into: &first, &second)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            Self.mix(word: word, into: &first, &second)
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
            Self.mix(word: tail, into: &first, &second)
        }
        (self.first, self.second) = (first, second)
    }

    /// One word into the two lanes: in each, a multiply by an odd constant and a shift folding the high bits back
    /// down. Each step is one-to-one in its lane, so two states that differ stay different.
    @inline(__always)
    private static func mix(word: UInt64, into first: inout UInt64, _ second: inout UInt64) {
        first = (first ^ word) &* 0x9E37_79B9_7F4A_7C15
        first ^= first >> 32
        second = (second ^ word) &* 0xC2B2_AE3D_27D4_EB4F
        second ^= second >> 29
    }
}
