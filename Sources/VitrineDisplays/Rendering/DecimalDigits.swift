// A number's decimal digits, as `String(number)` writes them, without making the string: a manifest line's size
// (200,000 lines at a commit) and a template's numbers.

enum DecimalDigits {
    /// Writes the digits of `number` (not negative) at `address`; returns how many.
    static func write(_ number: Int, to address: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1
        var rest = UInt64(max(number, 0))
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        rest = UInt64(max(number, 0))
        for index in stride(from: count - 1, through: 0, by: -1) {
            address[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        return count
    }
}

extension [UInt8] {
    mutating func appendDecimal(_ number: Int) {
        if number < 0 {
            append(contentsOf: String(number).utf8)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            let start = buffer.bindMemory(to: UInt8.self)
            guard let address = start.baseAddress else { return }
            append(contentsOf: UnsafeBufferPointer(start: address, count: DecimalDigits.write(number, to: address)))
        }
    }
}
