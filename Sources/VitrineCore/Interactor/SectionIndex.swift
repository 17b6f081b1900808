import Dispatch

/// Objects grouped by maker as they arrive: each object joins the existing section of its maker (found by
/// dictionary, never by a scan) or opens a new one.
///
/// Nothing depends on arrival order: every version a harvest lists of one record identifier (an object, or a
/// deleted header) competes, and the one with the later datestamp stays, ties by the later place in the source;
/// sections are read in maker order and their objects in `CatalogOrder`. So the same listing always gives the same
/// sections.
package struct SectionIndex: Sendable {
    /// A place in the source: page index, then position in the page.
    package struct Place: Sendable, Hashable, Comparable {
        package var page: Int
        package var position: Int

        package init(page: Int, position: Int) {
            self.page = page
            self.position = position
        }

        package static func < (lhs: Place, rhs: Place) -> Bool {
            (lhs.page, lhs.position) < (rhs.page, rhs.position)
        }
    }

    /// What an insertion did.
    package enum Insertion: Equatable {
        /// A record identifier not seen before.
        case added
        /// The version replaced the one kept under its identifier.
        case replaced
        /// The version lost to the one already kept under its identifier.
        case kept
    }

    private struct Entry: Sendable {
        /// The object; for a deleted record, an empty one holding its datestamp.
        var object: ArtObject
        var place: Place
        /// The section's number; `removed` for a deleted record.
        var section: Int32

        static let removed: Int32 = -1
    }

    /// The kept versions, in the order their identifiers first came; a deleted record's is a `removed` entry.
    /// Held in one array, with the dictionary mapping identifiers to places in it: a dictionary of whole entries
    /// keeps many of its buckets empty, each with room for an identifier and a whole entry, and this
    /// index is the largest part of an in-memory harvest's peak.
    private var entries: [Entry] = []
    /// Each kept identifier's place in `entries`.
    private var slots: [ExactText: Int] = [:]
    /// The section of each maker name as the source spells it: most objects skip normalising their maker.
    private var sectionBySpelling: [String: Int] = [:]
    private var sectionByMaker: [String: Int] = [:]
    /// Each section's maker (normalised; `nil` for no known maker).
    private var makers: [String?] = []
    /// Records seen under an identifier already kept.
    package private(set) var duplicates = 0
    /// Places of pages listed again from the start (a date window's first attempt): a record they held, listed
    /// again, is no duplicate.
    var voided: [Range<Int>] = []
    /// Objects kept (deleted records aside).
    private var live = 0

    package init() {}

    /// Adds an object at its place in the source, unless a version of its record that wins over it is kept
    /// (`wins`). A repeat of a kept object is counted as a duplicate.
    @discardableResult
    package mutating func insert(_ object: ArtObject, at place: Place) -> Insertion {
        let record = object.recordKey
        guard let slot = slots[record] else {
            slots[record] = entries.count
            entries.append(Entry(object: object, place: place, section: Int32(section(of: object.maker))))
            live += 1
            return .added
        }
        let existing = entries[slot]
        if existing.section != Entry.removed, existing.place != place,
            !voided.contains(where: { $0.contains(existing.place.page) }), !PageReference.relisted.contains(place.page)
        {
            duplicates += 1
        }
        guard Self.wins(object.datestamp, place, over: existing.object.datestamp, existing.place) else { return .kept }
        if existing.section == Entry.removed { live += 1 }
        entries[slot] = Entry(object: object, place: place, section: Int32(section(of: object.maker)))
        return .replaced
    }

    /// A deleted record at its place in the source: it removes the kept version of its identifier unless that one
    /// wins over it (`wins`), and stays to compete with versions that come later.
    @discardableResult
    package mutating func delete(recordID: String, datestamp: String?, at place: Place) -> Insertion {
        let record = ExactText(recordID)
        let tombstone = Entry(
            object: ArtObject(id: "", title: "", recordID: recordID, datestamp: datestamp), place: place,
            section: Entry.removed)
        guard let slot = slots[record] else {
            slots[record] = entries.count
            entries.append(tombstone)
            return .added
        }
        let existing = entries[slot]
        guard Self.wins(datestamp, place, over: existing.object.datestamp, existing.place) else { return .kept }
        if existing.section != Entry.removed { live -= 1 }
        entries[slot] = tombstone
        return .replaced
    }

    /// Number of distinct objects kept.
    package var objectCount: Int { live }

    /// The sections, ordered by maker (`SortKey`, no known maker last), each in `CatalogOrder`, leaving the index
    /// empty: the objects are handed over, not copied, so the collection is not held twice (the Interactor's last
    /// use of the index).
    package mutating func takeSections() -> [ArtistSection] {
        slots = [:]
        live = 0
        var members = [[Int]](repeating: [], count: makers.count)
        // By index: a loop over the entries would copy each one, a dozen reference counts, to read its section.
        for index in entries.indices where entries[index].section != Entry.removed {
            members[Int(entries[index].section)].append(index)
        }
        let filled = members.indices.filter { !members[$0].isEmpty }
        // Each section is put in catalog order on a core of its own: the sort stands between the harvest and the
        // catalogs. Keys are made a section at a time: a key holds copies of the id and the record identifier.
        let orders = Locked([[Int]](repeating: [], count: filled.count))
        do {
            let (entries, members) = (self.entries, members)
            DispatchQueue.concurrentPerform(iterations: filled.count) { number in
                let ordered = members[filled[number]].map { (CatalogOrder.Key(entries[$0].object), $0) }
                    .sorted { $0.0 < $1.0 }.map(\.1)
                orders.withLock { $0[number] = ordered }
            }
        }
        var sections: [ArtistSection] = []
        for (number, ordered) in orders.current.enumerated() {
            var objects: [ArtObject] = []
            objects.reserveCapacity(ordered.count)
            for index in ordered {
                objects.append(entries[index].object)
                entries[index].object = ArtObject(id: "", title: "")
            }
            sections.append(ArtistSection(maker: makers[filled[number]], objects: objects))
        }
        entries = []
        return SectionOrder.order(sections.map { ($0.maker, $0.objects.count) }).map { sections[$0] }
    }

    /// Whether a version with `datestamp` at `place` beats the kept one: the later datestamp (`Datestamp.isLater`),
    /// then the later place.
    package static func wins(_ datestamp: String?, _ place: Place, over kept: String?, _ keptPlace: Place) -> Bool {
        Datestamp.isLater(datestamp, than: kept) ?? (keptPlace < place)
    }

    /// The section of a maker, opened when it is the first object of that maker.
    private mutating func section(of spelling: String?) -> Int {
        if let section = sectionBySpelling[spelling ?? ""] { return section }
        let maker = MakerName.sectionName(spelling)
        let section: Int
        if let existing = sectionByMaker[maker ?? "\u{0}"] {
            section = existing
        } else {
            section = makers.count
            sectionByMaker[maker ?? "\u{0}"] = section
            makers.append(maker)
        }
        sectionBySpelling[spelling ?? ""] = section
        return section
    }
}
