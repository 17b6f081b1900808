// A number's decimal digits appended to bytes, as `String(number)` writes them, without making the string: a
// manifest line's size (200,000 lines at a commit) and a template's numbers.

extension [UInt8] {
    mutating func appendDecimal(_ number: Int) {
        if number < 0 {
            append(contentsOf: String(number).utf8)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = UInt64(number)
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            append(contentsOf: buffer[(24 - count)...])
        }
    }
}
