import Foundation

/// File-name-safe, ASCII identifiers for sections and objects.
package enum Slug {
    /// Names Windows reserves for devices, with any extension: a site copied there would lose these pages.
    static let windowsReservedNames: Set<String> = Set(
        ["con", "prn", "aux", "nul"] + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// Longest slug, before a uniqueness suffix.
    package static let maximumLength = 60

    /// `Rembrandt van Rijn` → `rembrandt-van-rijn`; `Émile` → `emile`; `Søren` → `soren`. A name with no Latin
    /// letters or digits (`葛飾北斎`) gets `{fallback}-{hash}`, stable across runs.
    package static func make(_ text: String, fallback: String = "maker") -> String {
        let slug = text.utf8.allSatisfy { $0 < 0x80 } ? asciiSlug(text) : foldedSlug(text)
        if slug.isEmpty { return "\(fallback)-\(stableHash(text))" }
        // `con.html`, `aux.html`, `com1.html` … cannot be created on Windows hosts.
        if windowsReservedNames.contains(slug) { return "\(slug)-\(fallback)" }
        return slug
    }

    /// `make` for ASCII text (most object numbers), where folding is lower-casing: byte by byte, without
    /// Foundation's `folding`, which bridges every string; every object's links are named through here.
    static func asciiSlug(_ text: String) -> String {
        var slug: [UInt8] = []
        slug.reserveCapacity(min(text.utf8.count, maximumLength))
        var pendingDash = false
        for byte in text.utf8 {
            let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            if (0x61...0x7A).contains(lower) || (0x30...0x39).contains(lower) {
                if pendingDash && !slug.isEmpty { slug.append(UInt8(ascii: "-")) }
                slug.append(lower)
                pendingDash = false
            } else {
                pendingDash = true
            }
            if slug.count >= maximumLength { break }
        }
        while slug.last == UInt8(ascii: "-") { slug.removeLast() }
        return String(decoding: slug, as: UTF8.self)
    }

    /// `make` for any text: accents, case and width folded first (`Émile` → `emile`), then `LatinLetters` spelt
    /// out (`Søren` → `soren`).
    static func foldedSlug(_ text: String) -> String {
        let folded = LatinLetters.spellOut(
            text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
                .lowercased())
        var slug = ""
        var length = 0
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            let isAlphanumeric = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if isAlphanumeric {
                if pendingDash && !slug.isEmpty {
                    slug.append("-")
                    length += 1
                }
                slug.unicodeScalars.append(scalar)
                length += 1
                pendingDash = false
            } else {
                pendingDash = true
            }
            if length >= maximumLength { break }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }

    /// Makes slugs unique in the order given: the second `jan-steen` becomes `jan-steen-2`.
    ///
    /// Each slug remembers the next number to try, so ids that share a long prefix (shelfmarks do) take one
    /// claim each, not a probe of every number taken before; the names come out as if every number were tried from 2.
    ///
    /// A name is kept as 64 bits of its fingerprint, less memory than a set of strings for a million pages; the
    /// same on every run, so a night names every page as a fresh export does.
    package struct Registry: Sendable {
        private var taken: Set<UInt64>
        private var nextNumber: [String: Int] = [:]
        /// Lookups made so far, for the test that keeps naming linear.
        package private(set) var probes = 0

        package init(reserved: Set<String> = []) {
            taken = Set(reserved.map(Self.key))
        }

        package mutating func claim(_ slug: String) -> String {
            var candidate = slug
            var number = nextNumber[slug] ?? 2
            probes += 1
            var key = Self.key(candidate)
            if taken.contains(key) {
                // Every number below `number` is taken already: by this slug's earlier claims, or found taken.
                repeat {
                    candidate = "\(slug)-\(number)"
                    key = Self.key(candidate)
                    number += 1
                    probes += 1
                } while taken.contains(key)
                nextNumber[slug] = number
            }
            taken.insert(key)
            return candidate
        }

        private static func key(_ name: String) -> UInt64 {
            var fingerprint = Fingerprint()
            fingerprint.combine(name)
            return fingerprint.first64
        }
    }

    /// FNV-1a, 32 bits, as 8 hex digits: stable across runs and platforms (unlike `Hasher`).
    package static func stableHash(_ text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
