/// Random names for what must not collide with another run's: a harvest, a staging folder.
package enum RandomID {
    /// `words` random 64-bit words as lower-case hex, 16 digits each.
    package static func hex(words: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<words).map { _ in
            let digits = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
