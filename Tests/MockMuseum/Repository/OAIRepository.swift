import Foundation

/// An OAI-PMH repository whose records change as a test says, and which behaves as real repositories do: tokens
/// that repeat from one harvest to the next or restart with the server, day granularity, an `earliestDatestamp`
/// that lies, `completeListSize` that counts the whole repository, date filters ignored or refused, fractional
/// response dates, clocks that stamp edits ahead of themselves, and old tombstones listed after a re-created
/// record. A fresh harvest of it at any moment is what a catalog must hold then (`OAIRepositoryHandler` serves
/// it; `RepositoryHistory` makes random histories for it).
package final class OAIRepository: @unchecked Sendable {
    /// How the repository misbehaves.
    package struct Behaviour: Sendable, Equatable, CustomStringConvertible {
        package enum Tokens: Sendable, Equatable {
            /// Unique per list and page, never reused.
            case opaque
            /// The list's arguments and the offset, spelt out: the same token every harvest asks the same list.
            case deterministic
            /// A counter from 1 that starts over when the server restarts (`restart()`), naming what it was issued
            /// for only until then.
            case restarting
        }

        package var tokens = Tokens.opaque
        package var pageSize = 10
        /// `Identify` says `YYYY-MM-DD`; datestamps, `from` and `until` are days.
        package var dayGranularity = false
        /// `Identify` says seconds, but only days are taken in `from`/`until` (a misstated granularity).
        package var takesOnlyDays = false
        /// `earliestDatestamp` is later than the oldest records.
        package var earliestLies = false
        /// `from`, `until` are ignored: every list is the whole repository.
        package var ignoresDates = false
        /// `from`, `until` are refused with `badArgument`.
        package var refusesDates = false
        /// `ListIdentifiers` alone ignores `from` and `until` (`ListRecords` honours them).
        package var identifiersIgnoreDates = false
        /// `ListIdentifiers` alone refuses `from` and `until` (badArgument).
        package var identifiersRefuseDates = false
        /// `completeListSize` counts the whole repository, whatever the list.
        package var sizeLies = false
        /// `responseDate` carries a fraction of a second (`…T10:00:00.250Z`).
        package var fractionalResponseDate = false
        /// A re-created record's old deleted header is listed too, after the record.
        package var lateTombstones = false
        /// Edits are stamped up to this many seconds after the server's clock.
        package var clockAhead = 0
        /// Headers name no sets (`setSpec`), though a list asked for a set holds only its records.
        package var headersOmitSets = false
        /// `Identify` says `deletedRecord` `no`, and a deleted record is simply gone from every list.
        package var keepsNoDeletions = false
        /// `responseDate` is written in a zone an hour east of UTC (`…T11:00:00+01:00`), against the protocol.
        package var zonedResponseDate = false
        /// Lists are in datestamp order, not the records' (a revised record moves to the end of every list it is in,
        /// and a token's offset then points elsewhere).
        package var ordersByDatestamp = false
        /// A page lists its records in another order each time it is asked for (rotated by one more each answer).
        package var reordersPages = false
        /// Lists write `responseDate` as an HTTP date (`Tue, 01 Dec 2026 10:00:00 GMT`), against the protocol.
        package var listsDateAsHTTP = false
        /// `Identify` is answered with a `badVerb` error.
        package var refusesIdentify = false
        /// Lists take no notice of `set`: every record is listed, its header naming its own sets.
        package var ignoresSet = false
        /// A list's last page, when full, carries a token all the same, and that token is answered `noRecordsMatch`.
        package var tokenPastEnd = false
        /// What the token past the end is answered with.
        package var tokenPastEndError = "noRecordsMatch"
        /// Tokens carry no `completeListSize` (it is optional).
        package var omitsSize = false

        package init() {}

        package var description: String {
            var parts = ["\(tokens) tokens", "pages of \(pageSize)"]
            if dayGranularity { parts.append("days") }
            if takesOnlyDays { parts.append("takes only days") }
            if earliestLies { parts.append("earliest lies") }
            if ignoresDates { parts.append("ignores dates") }
            if refusesDates { parts.append("refuses dates") }
            if identifiersIgnoreDates { parts.append("ListIdentifiers ignores dates") }
            if identifiersRefuseDates { parts.append("ListIdentifiers refuses dates") }
            if sizeLies { parts.append("size lies") }
            if fractionalResponseDate { parts.append("fractional responseDate") }
            if lateTombstones { parts.append("late tombstones") }
            if clockAhead > 0 { parts.append("clock ahead \(clockAhead) s") }
            if headersOmitSets { parts.append("headers omit sets") }
            if keepsNoDeletions { parts.append("keeps no deletions") }
            if zonedResponseDate { parts.append("zoned responseDate") }
            if ordersByDatestamp { parts.append("datestamp order") }
            if reordersPages { parts.append("pages reordered") }
            if listsDateAsHTTP { parts.append("lists dated as HTTP") }
            if refusesIdentify { parts.append("refuses Identify") }
            if ignoresSet { parts.append("ignores set") }
            if tokenPastEnd { parts.append("token past the end") }
            if omitsSize { parts.append("no completeListSize") }
            return parts.joined(separator: ", ")
        }
    }

    /// One record as the repository holds it.
    package struct Record: Sendable, Equatable {
        package var number: Int
        package var revision = 0
        /// Seconds since 1970.
        package var datestamp: Int
        package var deleted = false
        package var sets: [String] = []
        package var title: String
        package var maker: String?
        package var date: String?
        /// The datestamp of an earlier deletion, still listed as a deleted header (`lateTombstones`).
        package var oldTombstone: Int?
        /// Listed with metadata no reader understands (an empty `<metadata>`), as a broken revision is.
        package var unreadable = false

        package init(number: Int, datestamp: Int, title: String, maker: String? = nil, date: String? = nil) {
            self.number = number
            self.datestamp = datestamp
            self.title = title
            self.maker = maker
            self.date = date
        }

        package var identifier: String { "oai:mock.example:\(number)" }
    }

    package let behaviour: Behaviour
    private let lock = NSLock()
    private var records: [Record] = []
    /// The server's clock, seconds since 1970.
    private var clock: Int
    /// What each token was issued for: the list's arguments and the offset it continues at.
    private var tokens: [String: (arguments: ListArguments, offset: Int)] = [:]
    private var issued = 0
    private var refusing: [String: Int] = [:]
    private var answers = 0
    private var listsAsked = 0
    /// Changes to make just before a list answer: an edit saved while a harvest pages through the list.
    private var scheduled: [(list: Int, change: @Sendable (inout [Record], inout Int) -> Void)] = []
    /// A change held for a date window's next page until the harvest's open last window has ended.
    private var held: (@Sendable (inout [Record], inout Int, ClosedRange<Int>) -> Void)?
    private var heldFor: @Sendable (ClosedRange<Int>) -> Bool = { _ in true }
    private var holding = false
    private var openListEnded = false
    private var waiting: CheckedContinuation<Void, Never>?

    package init(behaviour: Behaviour, clock: Int = 1_780_000_000) {
        self.behaviour = behaviour
        self.clock = clock
    }

    // MARK: Changing the repository

    /// Changes the records and the clock; the handler serves what they are after.
    package func change(_ body: (inout [Record], inout Int) -> Void) {
        lock.withLock { body(&records, &clock) }
    }

    /// Makes `body`'s change just before the `list`th list request from now is answered (1: the next one).
    package func change(beforeList list: Int, _ body: @escaping @Sendable (inout [Record], inout Int) -> Void) {
        lock.withLock { scheduled.append((listsAsked + list, body)) }
    }

    /// Drops the scheduled changes not made yet.
    package func cancelScheduledChanges() {
        lock.withLock { scheduled = [] }
    }

    /// A list request is being answered: the changes scheduled for it are made first.
    func listAsked() {
        lock.withLock {
            listsAsked += 1
            for (list, change) in scheduled where list == listsAsked { change(&records, &clock) }
            scheduled.removeAll { $0.list <= listsAsked }
        }
    }

    /// Makes `body`'s change (given the window's datestamps) just before the next page of a date window is
    /// answered, once a list open at its end (a windowed harvest's last window) has been answered to its end: a
    /// record saved while one window pages through its list, after the window that would list it again ended.
    /// That page's answer waits for it (another chain walks the last window).
    package func change(
        inWindow picks: @escaping @Sendable (ClosedRange<Int>) -> Bool = { _ in true },
        afterOpenListEnds body: @escaping @Sendable (inout [Record], inout Int, ClosedRange<Int>) -> Void
    ) {
        lock.withLock {
            held = body
            heldFor = picks
            holding = false
            openListEnded = false
        }
    }

    /// A page after the first of a list from `window` is being answered: a held change waits, then is made.
    func nextPageAsked(window: ClosedRange<Int>) async {
        // The first such page claims the change; the others are answered at once.
        let mine: Bool = lock.withLock {
            guard held != nil, !holding, heldFor(window) else { return false }
            holding = true
            return true
        }
        guard mine else { return }
        await withCheckedContinuation { continuation in
            let ready: Bool = lock.withLock {
                if openListEnded { return true }
                waiting = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        lock.withLock {
            held?(&records, &clock, window)
            held = nil
        }
    }

    /// A list with a start and no end has been answered to its end: a held change may be made.
    func openListEnds() {
        let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
            openListEnded = true
            defer { waiting = nil }
            return waiting
        }
        waiter?.resume()
    }

    /// The records as they stand.
    package var current: [Record] { lock.withLock { records } }
    package var now: Int { lock.withLock { clock } }

    /// The next `times` resumption tokens asked of a `verb` list are refused (`badResumptionToken`), as by a
    /// server that timed them out.
    package func refuseNextToken(of verb: String, times: Int = 1) {
        lock.withLock { refusing[verb, default: 0] += times }
    }

    /// Whether a token asked of a `verb` list is to be refused.
    func takeRefusal(of verb: String) -> Bool {
        lock.withLock {
            guard let left = refusing[verb], left > 0 else { return false }
            refusing[verb] = left - 1
            return true
        }
    }

    /// A number for each list answer, counting up (how `reordersPages` turns a page).
    func nextAnswer() -> Int {
        lock.withLock {
            answers += 1
            return answers
        }
    }

    /// The server restarts: a restarting counter starts over, and forgets what it issued.
    package func restart() {
        lock.withLock {
            issued = 0
            if behaviour.tokens == .restarting { tokens = [:] }
        }
    }

    // MARK: Serving

    /// What a list asks for.
    struct ListArguments: Sendable, Equatable {
        var verb: String
        var prefix: String
        var set: String?
        var from: String?
        var until: String?
    }

    /// One entry of a list: a record, or a deleted header with its datestamp.
    struct Entry {
        var record: Record
        var deleted: Bool
        var datestamp: Int
    }

    /// The entries of a list as the repository stands now, in identifier order; old tombstones after the rest.
    func entries(_ arguments: ListArguments) -> [Entry] {
        lock.withLock {
            let ignores =
                behaviour.ignoresDates || (arguments.verb == "ListIdentifiers" && behaviour.identifiersIgnoreDates)
            let (from, until) = ignores ? (nil, nil) : (arguments.from, arguments.until)
            func inside(_ stamp: Int) -> Bool {
                let listed = listedDatestamp(stamp)
                if let from, let start = bound(from), listed < start { return false }
                if let until, let end = bound(until), listed > end + (until.utf8.count == 10 ? 86_399 : 0) {
                    return false
                }
                return true
            }
            var entries: [Entry] = []
            var late: [Entry] = []
            for record in records {
                if let set = arguments.set, !behaviour.ignoresSet,
                    !record.sets.contains(where: { $0 == set || $0.hasPrefix(set + ":") })
                {
                    continue
                }
                if behaviour.keepsNoDeletions, record.deleted { continue }
                if inside(record.datestamp) {
                    entries.append(Entry(record: record, deleted: record.deleted, datestamp: record.datestamp))
                }
                if behaviour.lateTombstones, !behaviour.keepsNoDeletions, let old = record.oldTombstone,
                    !record.deleted,
                    inside(old)
                {
                    late.append(Entry(record: record, deleted: true, datestamp: old))
                }
            }
            if behaviour.ordersByDatestamp {
                entries = entries.enumerated().sorted {
                    ($0.element.datestamp, $0.offset) < ($1.element.datestamp, $1.offset)
                }
                .map(\.element)
            }
            return entries + late
        }
    }

    /// A datestamp as the repository lists and filters it: the day's start by days.
    func listedDatestamp(_ seconds: Int) -> Int {
        behaviour.dayGranularity ? seconds - seconds % 86_400 : seconds
    }

    /// Seconds of a `from`/`until` value.
    private func bound(_ text: String) -> Int? {
        RepositoryDates.seconds(text)
    }

    /// How many records the repository holds, deleted ones included (what a lying `completeListSize` says).
    var size: Int { lock.withLock { records.count } }

    /// Issues the token continuing `arguments` at `offset`.
    func token(for arguments: ListArguments, offset: Int) -> String {
        lock.withLock {
            let token: String
            switch behaviour.tokens {
            case .opaque:
                issued += 1
                token = "opaque-\(UUID().uuidString)-\(issued)"
            case .deterministic:
                token = [
                    arguments.verb, arguments.prefix, arguments.set ?? "", arguments.from ?? "", arguments.until ?? "",
                    String(offset),
                ].joined(separator: "~")
            case .restarting:
                issued += 1
                token = String(issued)
            }
            tokens[token] = (arguments, offset)
            return token
        }
    }

    /// What a token was issued for; `nil` when it names nothing this server knows.
    func resume(_ token: String) -> (arguments: ListArguments, offset: Int)? {
        lock.withLock { tokens[token] }
    }
}

/// Reading and writing the repository's dates.
package enum RepositoryDates {
    /// Seconds since 1970 of `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`; `nil` for anything else.
    package static func seconds(_ text: String) -> Int? {
        let formatter = ISO8601DateFormatter()
        if text.utf8.count == 10 {
            formatter.formatOptions = [.withFullDate]
        } else if text.utf8.count != 20 {
            return nil
        }
        return formatter.date(from: text).map { Int($0.timeIntervalSince1970) }
    }

    /// `YYYY-MM-DDThh:mm:ssZ`, or the day alone.
    package static func text(_ seconds: Int, days: Bool) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = days ? [.withFullDate] : [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
