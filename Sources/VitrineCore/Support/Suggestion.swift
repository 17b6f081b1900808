/// "Did you mean …": the candidate a mistyped name most likely meant.
package enum Suggestion {
    /// The candidate closest to `name` (case ignored) when it is close enough to be a typo; else `nil`.
    package static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let lowered = Array(name.lowercased())
        let scored = candidates.map { ($0, distance(lowered, Array($0.lowercased()))) }
        guard let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }), best.1 <= max(2, lowered.count / 3) else {
            return nil
        }
        return best.0
    }

    /// The Levenshtein distance between two names.
    package static func distance(_ first: [Character], _ second: [Character]) -> Int {
        var previous = Array(0...second.count)
        for (row, left) in first.enumerated() {
            var current = [row + 1]
            for (column, right) in second.enumerated() {
                current.append(
                    min(previous[column + 1] + 1, current[column] + 1, previous[column] + (left == right ? 0 : 1)))
            }
            previous = current
        }
        return previous[second.count]
    }
}
