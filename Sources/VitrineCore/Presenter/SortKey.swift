import Foundation

/// The order of sections: by name with case and accents ignored (`Émile` files with `E`), ties by the name
/// itself, so the order is total and the same on every machine.
package enum SortKey {
    /// The name folded for comparison.
    package static func key(for name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether `lhs` sorts before `rhs`.
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (key(for: lhs), key(for: rhs))
        if left != right { return left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars) }
        return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
    }
}
