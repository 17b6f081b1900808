import CLibXML2

/// Values by libxml2's interned name pointer: a small open-addressed table, since a page has a few dozen
/// distinct names and every element looks one up; past its capacity it falls back to a dictionary.
struct InternedNameTable<Value> {
    private static var capacity: Int { 256 }
    private var keys = [UInt](repeating: 0, count: capacity)
    private var values = [Value?](repeating: nil, count: capacity)
    private var count = 0
    private var overflow: [UInt: Value] = [:]

    private static func slot(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: ((key >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    func value(for pointer: UnsafePointer<xmlChar>) -> Value? {
        let key = UInt(bitPattern: pointer)
        var index = Self.slot(key)
        while keys[index] != 0 {
            if keys[index] == key { return values[index] }
            index = (index + 1) & (Self.capacity - 1)
        }
        return overflow.isEmpty ? nil : overflow[key]
    }

    mutating func insert(_ value: Value, for pointer: UnsafePointer<xmlChar>) {
        let key = UInt(bitPattern: pointer)
        guard count < Self.capacity / 2 else {
            overflow[key] = value
            return
        }
        var index = Self.slot(key)
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & (Self.capacity - 1) }
        if keys[index] == 0 { count += 1 }
        keys[index] = key
        values[index] = value
    }
}
