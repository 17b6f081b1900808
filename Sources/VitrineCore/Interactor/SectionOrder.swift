import Foundation

/// The order of sections in a catalog: by maker with case and accents ignored (`Émile` files with `E`), ties by the
/// name itself, so the order is total and the same on every machine; the unknown maker's section last.
package enum SectionOrder {
    /// The positions of `sections` in catalog order: by the name each files under (its sort name, else its
    /// maker's name), ties by the maker's name. Each name is folded once, not once per comparison: real
    /// collections have 50,000 makers.
    package static func order(
        _ sections: [(maker: String?, count: Int)], sortNames: [String: String] = [:]
    ) -> [Int] {
        var known: [(index: Int, key: String)] = sections.indices.compactMap { index in
            sections[index].maker.map { (index, SortKey.key(for: sortNames[$0] ?? $0)) }
        }
        known.sort { left, right in
            if left.key != right.key {
                return left.key.unicodeScalars.lexicographicallyPrecedes(right.key.unicodeScalars)
            }
            return (sections[left.index].maker ?? "").unicodeScalars.lexicographicallyPrecedes(
                (sections[right.index].maker ?? "").unicodeScalars)
        }
        return known.map(\.index) + sections.indices.filter { sections[$0].maker == nil }
    }
}

/// A maker's name folded for comparison: case, accents and width ignored.
package enum SortKey {
    /// The name folded for comparison.
    package static func key(for name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
