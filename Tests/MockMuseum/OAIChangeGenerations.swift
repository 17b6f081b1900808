import Foundation

/// A museum that changes between harvests, as the Rijksmuseum does night after night: each generation revises,
/// deletes and adds records, stamps them with its own datestamp, and moves the server's clock (`responseDate`)
/// on. `MockFaults.museumGeneration` says how many generations have happened.
package struct ChangeGeneration: Sendable {
    /// Records (by number) whose title changes; every third also changes maker (it moves between sections).
    package var revised: [Int]
    /// Records that become deleted headers.
    package var deleted: [Int]
    /// New records, numbered after every record before them.
    package var added: Int

    package init(revised: [Int] = [], deleted: [Int] = [], added: Int = 0) {
        self.revised = revised
        self.deleted = deleted
        self.added = added
    }
}

/// One record as the museum holds it in a generation.
struct RecordVersion {
    var number: Int
    /// The generation that last touched it (0: the bulk load).
    var generation: Int
    var isDeleted: Bool
    var datestamp: String
}

extension OAICollection {
    /// The server's clock in generation `generation`: a day later each time.
    package static func responseDate(generation: Int) -> String {
        "2026-11-\(22 + generation)T10:00:00Z"
    }

    /// The datestamp of records changed in `generation`: between the clock before it and its own.
    static func datestamp(generation: Int) -> String {
        generation == 0 ? "2026-06-09T10:19:51Z" : "2026-11-\(21 + generation)T18:30:00Z"
    }

    /// Where record `number` of the bulk load sits in time when datestamps are skewed.
    static func skewedDatestamp(_ number: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        switch number % 10 {
        case 0:  // A re-index: one second.
            return "2025-11-01T02:00:00Z"
        case 1, 2, 3:  // Spread over two years from the earliest datestamp.
            let day = (number * 7_919) % 730
            let stamp = DateFormatting.day(fromEarliest: day)
            return "\(stamp)T\(two(number % 24)):\(two(number % 60)):\(two((number / 7) % 60))Z"
        default:  // The bulk load, spread over one day.
            let second = (number * 37) % 86_400
            return "2025-03-04T\(two(second / 3_600)):\(two(second % 3_600 / 60)):\(two(second % 60))Z"
        }
    }

    /// How many records exist (deleted ones included) in `generation`.
    func recordCount(generation: Int) -> Int {
        count + generations.prefix(generation).reduce(0) { $0 + $1.added }
    }

    /// Every record of `generation` whose datestamp lies in `from`…`until` (inclusive; `nil`: open), in number
    /// order.
    func records(generation: Int, from: String?, until: String?) -> [RecordVersion] {
        Self.listed(records(generation: generation), from: from, until: until, dayGranularity: dayGranularity)
    }

    /// Every record of `generation`, with its datestamp to the second, in number order (the moved record last).
    func records(generation: Int) -> [RecordVersion] {
        var touched: [Int: (generation: Int, deleted: Bool)] = [:]
        var next = count
        for (offset, change) in generations.prefix(generation).enumerated() {
            let number = offset + 1
            for record in change.revised { touched[record] = (number, false) }
            for record in change.deleted { touched[record] = (number, true) }
            for record in next..<(next + change.added) { touched[record] = (number, false) }
            next += change.added
        }
        var versions: [RecordVersion] = (0..<next).compactMap { number in
            if number == movedRecord && movedRecordSettled { return nil }
            let (changed, deleted) = touched[number] ?? (0, isDeleted(number))
            let stamp =
                changed == 0 && skewedDatestamps ? Self.skewedDatestamp(number) : Self.datestamp(generation: changed)
            return RecordVersion(number: number, generation: changed, isDeleted: deleted, datestamp: stamp)
        }
        if let moved = movedRecord {
            versions.append(
                RecordVersion(number: moved, generation: 1, isDeleted: false, datestamp: Self.movedDatestamp))
        }
        return versions
    }

    /// The records whose datestamp lies in `from`…`until`, each datestamp as the repository's granularity shows it.
    static func listed(
        _ versions: [RecordVersion], from: String?, until: String?, dayGranularity: Bool
    ) -> [RecordVersion] {
        versions.compactMap { version in
            var version = version
            if dayGranularity { version.datestamp = String(version.datestamp.prefix(10)) }
            // A bound by the day takes the whole day.
            if let from, version.datestamp.prefix(from.count) < from { return nil }
            if let until, version.datestamp.prefix(until.count) > until { return nil }
            return version
        }
    }

    /// The object of a record as revised in `generation`.
    static func object(_ number: Int, revision generation: Int) -> SyntheticObject {
        var object = SyntheticCollection.object(number)
        guard generation > 0 else { return object }
        object.title += " (revision \(generation))"
        object.details = object.details.map { SyntheticCollection.revised($0, number: number, generation: generation) }
        if number % 3 == 0 {
            let makers = SyntheticCollection.makers
            object.maker = makers[((object.maker.flatMap { makers.firstIndex(of: $0) } ?? 0) + 1) % makers.count]
        }
        return object
    }
}

/// Days counted from the mock's earliest datestamp (2024-08-15), as `YYYY-MM-DD`.
enum DateFormatting {
    static func day(fromEarliest offset: Int) -> String {
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var (year, month, day) = (2024, 8, 15 + offset)
        while true {
            let length = month == 2 && year % 4 == 0 ? 29 : lengths[month - 1]
            guard day > length else { break }
            day -= length
            month += 1
            if month > 12 { (month, year) = (1, year + 1) }
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

/// The listings one mock server has worked out: a 100,000-record listing is asked for 2,000 times, once a page,
/// and a harvest in date windows asks for dozens of windows of one generation. Each generation's records are
/// worked out once and kept in datestamp order too, so a window is found by two binary searches, as a real
/// repository's datestamp index finds it.
final class OAIListings: @unchecked Sendable {
    private let lock = NSLock()
    private var listings: [String: [RecordVersion]] = [:]
    /// By generation: every record (number order), and their positions in datestamp order.
    private var generations: [Int: (all: [RecordVersion], byDate: [Int])] = [:]

    func records(
        of collection: OAICollection, generation: Int, from: String?, until: String?
    ) -> [RecordVersion] {
        let key = "\(generation)|\(from ?? "")|\(until ?? "")"
        if let listed = lock.withLock({ listings[key] }) { return listed }
        let (all, byDate) = index(of: collection, generation: generation)
        let day = collection.dayGranularity
        func stamp(_ position: Int) -> Substring {
            day ? all[position].datestamp.prefix(10) : all[position].datestamp[...]
        }
        // Both bounds are monotonic in datestamp order: the first record not before `from`, the first after `until`.
        func firstIndex(where past: (Substring) -> Bool) -> Int {
            var (low, high) = (0, byDate.count)
            while low < high {
                let middle = (low + high) / 2
                if past(stamp(byDate[middle])) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        let lower = from.map { from in firstIndex { !($0.prefix(from.count) < from) } } ?? 0
        let upper = until.map { until in firstIndex { $0.prefix(until.count) > until } } ?? byDate.count
        let listed = byDate[lower..<max(lower, upper)].sorted().map { position in
            var version = all[position]
            version.datestamp = String(stamp(position))
            return version
        }
        lock.withLock { listings[key] = listed }
        return listed
    }

    /// A generation's records and their datestamp order, worked out on the first listing that needs them (a
    /// 100,000-record generation takes 35 ms: `prepare` does it before a benchmark times a run).
    @discardableResult
    func index(of collection: OAICollection, generation: Int) -> (all: [RecordVersion], byDate: [Int]) {
        if let index = lock.withLock({ generations[generation] }) { return index }
        let all = collection.records(generation: generation)
        let byDate = all.indices.sorted { (all[$0].datestamp, $0) < (all[$1].datestamp, $1) }
        lock.withLock { generations[generation] = (all, byDate) }
        return (all, byDate)
    }
}
