/// What a run has read so far: the collection (the stored one, changed by what arrived), counts and warnings.
///
/// Without a collection store the collection is held in `index`. With one, it is built in the store as pages
/// arrive (`RunCollection`), by the same rules: a million harvested objects are never in memory.
struct RunState {
    var index = SectionIndex()
    /// The run's collection in the store; `nil`: it is `index`.
    let inStore: RunCollection?
    var statistics = ExportStatistics()
    var warnings: [(PageReference, RecordWarning)] = []
    var notices: [(PageReference, [String])] = []
    var restartNotices: [String] = []
    /// The server's clock on the first page: where the next incremental run starts.
    var serverTime: String?
    /// The span a windowed harvest listed (its end is where the next incremental run starts).
    var span: ChangeWindow?
    /// What the harvest said about itself (date windows).
    var harvestNotices: [String] = []
    /// Objects dated after the clock of the server that listed them (its `responseDate`).
    var futureDated = 0
    /// Every key the collection holds now, when a page listed them all (`SourcePage.listedKeys`): an object
    /// listed elsewhere but not there is not in the collection.
    var listedKeys: Set<String>?
    /// The server's earliest clock (`responseDate`) on the run's pages: when its listing began.
    var listedSince: Int?
    /// What each page received counted, by its place: a date window that starts over takes its pages' back.
    private var tallies: [Int: (deleted: Int, futureDated: Int)] = [:]
    /// The deleted, skipped and future-dated versions listed that were made about when the run began or later:
    /// the list since a windowed span's end (`PageReference.relisted`) lists them again, and they count once.
    private var lateVersions: [String: Int] = [:]

    init(inStore: RunCollection?, restartNotices: [String] = []) {
        self.inStore = inStore
        self.restartNotices = restartNotices
    }

    /// Distinct objects in the run's collection.
    var objectCount: Int { inStore?.count ?? index.objectCount }
    /// Records seen again under an identifier the collection holds.
    var duplicates: Int { inStore?.duplicates ?? index.duplicates }

    /// Applies what the harvest hands over: a page, a measured total, or a restart.
    mutating func receive(_ event: HarvestEvent) throws(ExportError) {
        switch event {
        case .page(let reference, let page):
            try receive(page, at: reference)
        case .measured(let total):
            statistics.reportedTotal = total
        case .span(let span):
            self.span = span
        case .windowsStart(let start, let daysOnly):
            inStore?.windowsStart = (start, daysOnly)
        case .notice(let notice):
            harvestNotices.append(notice)
        case .windowStartedOver(let places):
            for (place, tally) in tallies where places.contains(place) {
                statistics.pages -= 1
                statistics.deleted -= tally.deleted
                futureDated -= tally.futureDated
                tallies[place] = nil
            }
            warnings.removeAll { places.contains($0.0.index) }
            notices.removeAll { places.contains($0.0.index) }
            lateVersions = lateVersions.filter { !places.contains($0.value) }
            index.voided.append(places)
            inStore?.voided.append(places)
        case .restart(let notice):
            // The worker starts over from the first page: what was read so far does not count.
            let notices = harvestNotices
            try inStore?.restart()
            self = RunState(inStore: inStore, restartNotices: restartNotices + [notice])
            harvestNotices = notices
        }
    }

    /// Whether a version listed on the page at `reference` counts: not when the list since the span's end lists
    /// again one counted already. Versions from before the run's listing began (by two days, for dates by days)
    /// are not remembered: that list holds none.
    private mutating func countsOnce(
        _ kind: Character, _ recordID: String?, _ datestamp: String?, at reference: PageReference
    ) -> Bool {
        guard let recordID, let datestamp, let since = listedSince, let stamp = Datestamp.seconds(datestamp),
            stamp >= since - 2 * 86_400
        else { return true }
        let key = "\(kind) \(recordID) \(datestamp)"
        guard lateVersions[key] != nil else {
            lateVersions[key] = reference.index
            return true
        }
        return !PageReference.relisted.contains(reference.index)
    }

    /// Applies a page: every object and deleted record competes with the versions of its identifier seen before
    /// (`SectionIndex.wins`).
    mutating func receive(_ page: SourcePage, at reference: PageReference) throws(ExportError) {
        statistics.pages += 1
        let counted = (deleted: statistics.deleted, futureDated: futureDated)
        defer {
            tallies[reference.index] = (statistics.deleted - counted.deleted, futureDated - counted.futureDated)
        }
        if reference.index == 0 {
            if let total = page.reportedTotal, statistics.reportedTotal == nil { statistics.reportedTotal = total }
            serverTime = page.serverTime
        }
        if !page.notices.isEmpty { notices.append((reference, page.notices)) }
        let clock = page.serverTime.flatMap(Datestamp.seconds)
        if let clock { listedSince = min(listedSince ?? clock, clock) }
        var changes: [RunChange] = []
        for (offset, record) in page.records.enumerated() {
            let place = SectionIndex.Place(page: reference.index, position: offset)
            switch record {
            case .object(let object):
                if let clock, let stamp = object.datestamp.flatMap(Datestamp.seconds), stamp > clock,
                    countsOnce("o", object.recordKey.text, object.datestamp, at: reference)
                {
                    futureDated += 1
                }
                if let listedKeys, !listedKeys.contains(object.recordKey.text) {
                    if inStore != nil { changes.append(.deletion(object.recordKey.text, datestamp: nil, place)) }
                    continue
                }
                if inStore != nil {
                    changes.append(.object(object, place))
                } else {
                    index.insert(object, at: place)
                }
            case .skipped(let reason, let recordID, let datestamp):
                if countsOnce("s", recordID, datestamp, at: reference) {
                    let warning = RecordWarning(
                        page: reference.cursor.description, position: offset + 1, reason: reason)
                    warnings.append((reference, warning))
                }
                // Its latest version cannot be read: no earlier one stays in its place.
                guard let recordID else { continue }
                if inStore != nil {
                    changes.append(.deletion(recordID, datestamp: datestamp, place))
                } else {
                    index.delete(recordID: recordID, datestamp: datestamp, at: place)
                }
            case .deleted(let recordID, let datestamp):
                if countsOnce("d", recordID, datestamp, at: reference) { statistics.deleted += 1 }
                guard let recordID else { continue }
                if inStore != nil {
                    changes.append(.deletion(recordID, datestamp: datestamp, place))
                } else {
                    index.delete(recordID: recordID, datestamp: datestamp, at: place)
                }
            }
        }
        if let listed = page.listedKeys, let inStore {
            listedKeys = Set(listed)
            for (offset, key) in try inStore.store.storedKeys(notIn: listed).enumerated() {
                statistics.deleted += 1
                let place = SectionIndex.Place(page: reference.index, position: page.records.count + offset)
                changes.append(.deletion(key, datestamp: nil, place))
            }
        }
        if let inStore, !changes.isEmpty { try inStore.apply(changes, listedSince: listedSince) }
    }
}

/// A run's collection, built in the collection store: the store keeps the versions, the Interactor decides by the
/// domain rules which of two versions of one identifier stays (`SectionIndex.wins`), and counts.
final class RunCollection {
    let store: any CollectionStore
    /// Whether the run starts from the stored collection.
    let fromStored: Bool
    private(set) var count = 0
    private(set) var duplicates = 0
    /// Records listed twice whose later version was made while the run listed them: a list ordered by datestamp,
    /// whose tokens are offsets, moved under the run and may have skipped others.
    private(set) var revisedWhileListed = 0
    /// The earliest datestamp such a record had before (as the repository writes it): a record that slid past the
    /// page being read stood after it in the list, so was dated at it or later.
    private(set) var movedFrom: (seconds: Int, text: String)?
    /// Places of pages listed again from the start (a date window's first attempt): see `SectionIndex.voided`.
    var voided: [Range<Int>] = []
    /// Where a windowed harvest's windows start (`HarvestWorker.place`).
    var windowsStart: (seconds: Int, daysOnly: Bool)?

    init(store: any CollectionStore, fromStored: Bool) throws(ExportError) {
        self.store = store
        self.fromStored = fromStored
        count = try store.startRun(fromStored: fromStored)
    }

    /// Starts again from what the run started from (the harvest starts over).
    func restart() throws(ExportError) {
        count = try store.startRun(fromStored: fromStored)
        duplicates = 0
        revisedWhileListed = 0
        movedFrom = nil
        voided = []
        windowsStart = nil
    }

    /// Applies a page's objects and deletions, in order. `listedSince`: the server's clock when the run's
    /// listing began (its earliest `responseDate`), in seconds.
    func apply(_ changes: [RunChange], listedSince clock: Int? = nil) throws(ExportError) {
        var (repeated, revised) = (0, 0)
        var moved = movedFrom
        let delta = try store.addToRun(changes) { new, kept in
            if kept.place != new.place, !voided.contains(where: { $0.contains(kept.place.page) }) {
                if new.isObject, kept.isObject, !PageReference.relisted.contains(new.place.page) { repeated += 1 }
                if let clock,
                    var earlier = Self.earlier(new.datestamp, kept.datestamp, ifLaterSince: clock)
                {
                    // A list by identifier whose window's end the record left skipped one after it in the window,
                    // dated anywhere in it: from the window's start.
                    let firstPlace = earlier.text == new.datestamp ? new.place : kept.place
                    if let start = windowStart(ofPage: firstPlace.page), start.seconds <= earlier.seconds {
                        earlier = start
                    }
                    revised += 1
                    if moved.map({ earlier.seconds < $0.seconds }) ?? true { moved = earlier }
                }
            }
            return SectionIndex.wins(new.datestamp, new.place, over: kept.datestamp, kept.place)
        }
        duplicates += repeated
        revisedWhileListed += revised
        movedFrom = moved
        count += delta
    }

    /// Where a window open at its start (a full run's first, which an `earliestDatestamp` later than the oldest
    /// records fills) starts: before every datestamp, with no text a list could ask from, so the next run harvests
    /// whole (`ExportInteractor.keep`).
    static let openStart = (seconds: Int.min, text: "")

    /// The start of the date window a page at `page` belongs to.
    private func windowStart(ofPage page: Int) -> (seconds: Int, text: String)? {
        guard let (start, daysOnly) = windowsStart, !PageReference.relisted.contains(page) else { return nil }
        let ordinal = page / HarvestWorker.pagesPerWindow
        guard ordinal > 0 else { return Self.openStart }
        let seconds = start + (ordinal - 1) * (daysOnly ? 86_400 : 1)
        return (seconds, Datestamp.text(seconds, daysOnly: daysOnly))
    }

    /// The earlier of two versions' datestamps, when they differ and the later is at or after `clock` (its day,
    /// for dates by days).
    private static func earlier(
        _ one: String?, _ other: String?, ifLaterSince clock: Int
    ) -> (seconds: Int, text: String)? {
        guard let one, let other, let first = Datestamp.seconds(one), let second = Datestamp.seconds(other),
            first != second
        else { return nil }
        let (early, late) = first < second ? ((first, one), other) : ((second, other), one)
        let start = late.utf8.count == 10 ? clock - ((clock % 86_400) + 86_400) % 86_400 : clock - Datestamp.settling
        return max(first, second) >= start ? early : nil
    }
}
