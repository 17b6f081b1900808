import Foundation

/// File-name-safe, ASCII identifiers for sections and objects.
package enum Slug {
    /// Longest slug, before a uniqueness suffix.
    package static let maximumLength = 60

    /// `Rembrandt van Rijn` → `rembrandt-van-rijn`; `Émile` → `emile`. A name with no Latin letters or digits
    /// (`葛飾北斎`) gets `{fallback}-{hash}`, stable across runs.
    package static func make(_ text: String, fallback: String = "maker") -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var slug = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            let isAlphanumeric = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if isAlphanumeric {
                if pendingDash && !slug.isEmpty { slug.append("-") }
                slug.unicodeScalars.append(scalar)
                pendingDash = false
            } else {
                pendingDash = true
            }
            if slug.count >= maximumLength { break }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.isEmpty { return "\(fallback)-\(stableHash(text))" }
        return slug
    }

    /// Makes slugs unique in the order given: the second `jan-steen` becomes `jan-steen-2`.
    package struct Registry: Sendable {
        private var taken: Set<String>

        package init(reserved: Set<String> = []) {
            taken = reserved
        }

        package mutating func claim(_ slug: String) -> String {
            var candidate = slug
            var number = 2
            while taken.contains(candidate) {
                candidate = "\(slug)-\(number)"
                number += 1
            }
            taken.insert(candidate)
            return candidate
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
