/// The order of objects inside a section, the same for every source and whatever the harvest's history or the
/// server's list order: so an incremental run writes what a fresh export writes.
///
/// 1. By the first year of the object's year range (`ObjectDetails.yearBegin`: the source's own number, else read
///    from the date: `c. 1665 - c. 1670` → 1665, `17th century` → 1600, `500 BC` → -500), else the first year in
///    the date's digits; undated objects last.
/// 2. Then by object number in natural order: runs of digits compare as numbers (`SK-A-2` before `SK-A-10`).
/// 3. Then by the number's bytes, then by the record's identifier's bytes: two objects never tie.
package enum CatalogOrder {
    /// What an object is sorted by, computed once per object.
    package struct Key: Sendable, Comparable {
        var year: Int
        var number: [UInt8]
        var id: String
        var record: String

        /// The object is borrowed: an initialiser's argument is otherwise passed owned, a copy of the object
        /// (a retain of each of its strings) for each key.
        package init(_ object: borrowing ArtObject) {
            year = object.details.yearBegin ?? CatalogOrder.firstYear(in: object.date) ?? Int.max
            number = CatalogOrder.naturalKey(object.id)
            id = object.id
            record = object.recordID ?? object.id
        }

        package static func < (lhs: Key, rhs: Key) -> Bool {
            if lhs.year != rhs.year { return lhs.year < rhs.year }
            if lhs.number != rhs.number { return lhs.number.lexicographicallyPrecedes(rhs.number) }
            if !lhs.id.utf8.elementsEqual(rhs.id.utf8) { return lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8) }
            return lhs.record.utf8.lexicographicallyPrecedes(rhs.record.utf8)
        }

        package static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.year == rhs.year && lhs.number == rhs.number && lhs.id.utf8.elementsEqual(rhs.id.utf8)
                && lhs.record.utf8.elementsEqual(rhs.record.utf8)
        }

        /// The key but its record identifier, as bytes that sort as the key does when compared byte by byte, shorter
        /// first when one starts the other (how SQLite compares BLOBs); two keys these bytes do not tell apart are
        /// ordered by the record identifier's bytes, the store's record key. The collection store is clustered by
        /// (section, these bytes, record key), so it reads a section back in catalog order and needs no sort. The
        /// year is eight big-endian bytes with its sign bit flipped; the number and the id follow with each 0x00
        /// written as 0x00 0xFF and an end of 0x00 0x00 (so that a number another one starts with sorts first, as
        /// arrays do).
        package var bytes: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(12 + number.count + id.utf8.count)
            let year = UInt64(bitPattern: Int64(year)) ^ (1 << 63)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: year >> shift)) }
            Self.appendEscaped(number, to: &bytes)
            Self.appendEscaped(id.utf8, to: &bytes)
            return bytes
        }

        private static func appendEscaped(_ part: some Sequence<UInt8>, to bytes: inout [UInt8]) {
            for byte in part {
                bytes.append(byte)
                if byte == 0 { bytes.append(0xFF) }
            }
            bytes.append(0)
            bytes.append(0)
        }
    }

    /// The first run of three or four digits in a date, negative when `BC`/`BCE`/`v. Chr.` follows it; `nil` when
    /// the date has none (`undated`, `17th century` has two digits only).
    package static func firstYear(in date: String?) -> Int? {
        guard let date else { return nil }
        let bytes = Array(date.utf8)
        var index = 0
        while index < bytes.count {
            guard isDigit(bytes[index]) else {
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, isDigit(bytes[end]) { end += 1 }
            let length = end - index
            if length == 3 || length == 4 {
                var year = 0
                for byte in bytes[index..<end] { year = year * 10 + Int(byte - UInt8(ascii: "0")) }
                return isBeforeChrist(bytes[end...]) ? -year : year
            }
            index = end
        }
        return nil
    }

    /// Whether an era before the common one follows a year (`BC`, `B.C.`, `BCE`, `v. Chr.`, `v.Chr.`).
    private static func isBeforeChrist(_ rest: ArraySlice<UInt8>) -> Bool {
        let following = String(decoding: rest.prefix(12), as: UTF8.self).lowercased()
            .drop(while: { $0 == " " })
        return following.hasPrefix("bc") || following.hasPrefix("b.c") || following.hasPrefix("v. chr")
            || following.hasPrefix("v.chr")
    }

    /// The bytes an object number sorts by: every run of digits becomes the marker `0`, its length without
    /// leading zeros, then the digits, so `2` < `10` and numbers compare as numbers wherever they sit.
    package static func naturalKey(_ text: String) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(text.utf8.count + 4)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard isDigit(byte) else {
                key.append(byte)
                index += 1
                continue
            }
            var start = index
            var end = index
            while end < bytes.count, isDigit(bytes[end]) { end += 1 }
            while start < end - 1, bytes[start] == UInt8(ascii: "0") { start += 1 }
            key.append(UInt8(ascii: "0"))
            key.append(UInt8(min(end - start, 255)))
            key.append(contentsOf: bytes[start..<end])
            index = end
        }
        return key
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
