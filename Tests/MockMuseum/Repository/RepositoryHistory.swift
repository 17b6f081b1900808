import Foundation
import VitrineTestSupport

/// Random repositories and the changes that happen to them between harvests, from a seed: the same seed gives the
/// same behaviour, records and nights, so a failing seed is a reproducible case.
package struct RepositoryHistory {
    package private(set) var random: SplitMix64
    package let behaviour: OAIRepository.Behaviour
    /// The set `--set` asks for, when the history harvests one.
    package let set: String?
    private var nextNumber = 0
    /// The server's clock before the last night's changes.
    private var lastNight = 0

    package init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var behaviour = OAIRepository.Behaviour()
        behaviour.tokens = [.opaque, .deterministic, .restarting][Int.random(in: 0..<3, using: &random)]
        behaviour.pageSize = Int.random(in: 4...25, using: &random)
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        behaviour.dayGranularity = chance(20)
        behaviour.takesOnlyDays = !behaviour.dayGranularity && chance(10)
        behaviour.earliestLies = chance(30)
        behaviour.ignoresDates = chance(8)
        behaviour.refusesDates = !behaviour.ignoresDates && chance(8)
        behaviour.sizeLies = chance(20)
        behaviour.fractionalResponseDate = chance(30)
        behaviour.lateTombstones = chance(30)
        behaviour.clockAhead = chance(30) ? Int.random(in: 60...(3 * 86_400), using: &random) : 0
        set = chance(30) ? "S" : nil
        behaviour.headersOmitSets = chance(20)
        behaviour.keepsNoDeletions = chance(15)
        behaviour.zonedResponseDate = chance(15)
        behaviour.identifiersIgnoreDates = chance(8)
        behaviour.identifiersRefuseDates = !behaviour.identifiersIgnoreDates && chance(8)
        // Drawn apart, so that the histories of the other behaviours stay what they were for every seed.
        var later = SplitMix64(seed: seed ^ 0x5EED_0F_0DE5)
        behaviour.ordersByDatestamp = Int.random(in: 0..<100, using: &later) < 50
        // With a size that counts other records, a list answered so can only fail (its last records would be unknown).
        behaviour.tokenPastEnd = Int.random(in: 0..<100, using: &later) < 20 && !behaviour.sizeLies
        behaviour.omitsSize = Int.random(in: 0..<100, using: &later) < 20
        self.random = random
        self.behaviour = behaviour
    }

    private static let makers: [String?] = [
        "Rembrandt van Rijn", "Johannes Vermeer", "Judith Leyster", "葛飾北斎", "Илья Репин", "Émile Bernard",
        "E\u{301}mile Bernard", "Frans Hals", "anoniem", nil, "  Jan   Steen ", "Clara <Peeters> & Co",
    ]
    private static let titles = [
        "Study", "Still life with \"lemon\" & <glass>", "Portrait \u{202E}reversed\u{202C}", "Landscape",
        "*Bold* [link](x) | pipe", "=SUM(A1)", "夜警", "Ночь", "Ἀθηνᾶ",
    ]

    /// A record made now: its datestamp at the server's clock, or ahead of it when the clock runs ahead.
    private mutating func stamp(_ clock: Int) -> Int {
        clock + (behaviour.clockAhead > 0 ? Int.random(in: 0...behaviour.clockAhead, using: &random) : 0)
    }

    private mutating func newRecord(_ clock: Int, datestamp: Int? = nil) -> OAIRepository.Record {
        let number = nextNumber
        nextNumber += 1
        var record = OAIRepository.Record(
            number: number, datestamp: datestamp ?? stamp(clock),
            title: "\(Self.titles[Int.random(in: 0..<Self.titles.count, using: &random)]) \(number)",
            maker: Self.makers[Int.random(in: 0..<Self.makers.count, using: &random)],
            date: Int.random(in: 0..<6, using: &random) == 0 ? nil : String(Int.random(in: 1500...2020, using: &random))
        )
        if Int.random(in: 0..<10, using: &random) < 7 { record.sets.append("S") }
        if Int.random(in: 0..<10, using: &random) < 2 { record.sets.append("S:sub") }
        if Int.random(in: 0..<10, using: &random) < 2 { record.sets.append("T") }
        return record
    }

    /// The repository's first state: records loaded over two years (some long before the rest), some deleted.
    package mutating func initial(_ repository: OAIRepository) {
        let count = Int.random(in: 30...220, using: &random)
        var made: [OAIRepository.Record] = []
        let clock = repository.now
        for _ in 0..<count {
            let age = Int.random(in: 0..<10, using: &random) == 0 ? 3_000 * 86_400 : 730 * 86_400
            var record = newRecord(clock, datestamp: clock - Int.random(in: 3_600...age, using: &random))
            // A bulk load: many records share one second.
            if Int.random(in: 0..<4, using: &random) == 0 { record.datestamp = clock - 400 * 86_400 }
            if Int.random(in: 0..<12, using: &random) == 0 { record.deleted = true }
            made.append(record)
        }
        repository.change { records, _ in records = made }
    }

    /// One night's changes: the clock moves on, and records are revised, moved between makers and sets, deleted,
    /// re-created and added.
    /// A `busy` night revises dozens of records, so that its list of changes runs to several pages.
    package mutating func night(_ repository: OAIRepository, busy: Bool = false) {
        var records = repository.current
        var clock = repository.now
        lastNight = clock
        clock += Int.random(in: 3_600...(3 * 86_400), using: &random)
        let live = records.indices.filter { !records[$0].deleted }
        let dead = records.indices.filter { records[$0].deleted }
        for index in live.shuffled(using: &random).prefix(Int.random(in: busy ? 20...45 : 0...12, using: &random)) {
            records[index].revision += 1
            records[index].title =
                "\(records[index].title.split(separator: " (").first ?? "") (r\(records[index].revision))"
            // A revision no reader understands, or a readable one after it.
            records[index].unreadable = Int.random(in: 0..<10, using: &random) == 0
            if Int.random(in: 0..<3, using: &random) == 0 {
                records[index].maker = Self.makers[Int.random(in: 0..<Self.makers.count, using: &random)]
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                // Into the set or out of it.
                if records[index].sets.contains("S") {
                    records[index].sets.removeAll { $0 == "S" || $0.hasPrefix("S:") }
                } else {
                    records[index].sets.append("S")
                }
            }
            records[index].datestamp = stamp(clock)
        }
        for index in live.shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)) {
            records[index].deleted = true
            records[index].datestamp = stamp(clock)
        }
        for index in dead.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)) {
            let deletedAt = records[index].datestamp
            records[index].deleted = false
            records[index].revision += 1
            records[index].title += " (again)"
            // A record's new version is always dated after its deletion.
            records[index].datestamp = max(stamp(clock), deletedAt + 86_400)
            if behaviour.lateTombstones { records[index].oldTombstone = deletedAt }
        }
        for _ in 0..<Int.random(in: 0...6, using: &random) { records.append(newRecord(clock)) }
        repository.change { stored, now in
            stored = records
            now = clock
        }
    }

    /// What changes while a night is cut off, before it is run again: catalogers go back over their day's work, and
    /// revise again or delete a few of the night's first changes (which the first pages of its list hold), and a
    /// few others.
    package mutating func revisit(_ repository: OAIRepository) {
        var records = repository.current
        let clock = repository.now + Int.random(in: 60...3_600, using: &random)
        let live = records.indices.filter { !records[$0].deleted }
        // The night's first changes, which the first pages of its list of changes hold.
        let earliest = live.filter { records[$0].datestamp > lastNight }.sorted {
            (records[$0].datestamp, $0) < (records[$1].datestamp, $1)
        }.prefix(10)
        let chosen =
            earliest.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
            + live.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))
        for index in Set(chosen).sorted() {
            if Int.random(in: 0..<4, using: &random) == 0 {
                records[index].deleted = true
            } else {
                records[index].revision += 1
                records[index].title =
                    "\(records[index].title.split(separator: " (").first ?? "") (r\(records[index].revision))"
            }
            records[index].datestamp = stamp(clock)
        }
        repository.change { stored, now in
            stored = records
            now = clock
        }
    }

    /// A number in `range`, from the history's generator.
    package mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// Catalogers save a few records while the next run lists them: just before one of its first list answers,
    /// they are revised and dated a minute later.
    package mutating func saveWhileListed(_ repository: OAIRepository) {
        let current = repository.current
        let live = current.indices.filter { !current[$0].deleted }
        let chosen = Array(live.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
        repository.change(beforeList: Int.random(in: 2...5, using: &random)) { records, clock in
            clock += 60
            for index in chosen where !records[index].deleted {
                records[index].revision += 1
                records[index].title =
                    "\(records[index].title.split(separator: " (").first ?? "") (r\(records[index].revision))"
                records[index].datestamp = clock
            }
        }
    }
}
