/// Objects grouped by maker as they arrive: each object joins the existing section of its maker (found by
/// dictionary, never by a scan) or opens a new one; an object can be replaced or removed again by its record
/// identifier (incremental harvests).
///
/// Nothing depends on arrival order or harvest history: of two records with one identifier the one with the
/// later datestamp is kept, ties by place in the source (the earlier wins); sections are read in maker order and
/// their objects in `CatalogOrder`. So the same collection always gives the same sections.
package struct SectionIndex: Sendable {
    /// A place in the source: page index, then position in the page.
    package struct Place: Sendable, Hashable, Comparable {
        package var page: Int
        package var position: Int

        package init(page: Int, position: Int) {
            self.page = page
            self.position = position
        }

        /// Where stored objects sit: after every page of a harvest, so a record harvested again with the same
        /// datestamp replaces its stored copy (the server's current version).
        package static let stored = Place(page: Int.max, position: 0)

        package static func < (lhs: Place, rhs: Place) -> Bool {
            (lhs.page, lhs.position) < (rhs.page, rhs.position)
        }
    }

    /// What an insertion did.
    package enum Insertion: Equatable {
        /// A record identifier not seen before.
        case added
        /// The object replaced the one kept under its identifier, which is returned.
        case replaced(ArtObject)
        /// The object lost to the one already kept under its identifier.
        case kept
    }

    private struct Entry: Sendable {
        var object: ArtObject
        var place: Place
        var section: Int
    }

    private var kept: [ExactText: Entry] = [:]
    /// The section of each maker name as the source spells it: most objects skip normalising their maker.
    private var sectionBySpelling: [String: Int] = [:]
    private var sectionByMaker: [String: Int] = [:]
    /// Each section's maker (normalised; `nil` for no known maker).
    private var makers: [String?] = []
    /// Records seen under an identifier already kept.
    package private(set) var duplicates = 0

    package init() {}

    /// Adds an object at its place in the source; of two records with one identifier the later datestamp wins,
    /// then the earlier place. A repeat within a harvest is counted as a duplicate.
    @discardableResult
    package mutating func insert(_ object: ArtObject, at place: Place) -> Insertion {
        let record = object.recordKey
        guard let existing = kept[record] else {
            kept[record] = Entry(object: object, place: place, section: section(of: object.maker))
            return .added
        }
        // The same page handed over again (a window harvested again after its token expired) is no duplicate.
        if existing.place != .stored, existing.place != place { duplicates += 1 }
        guard Self.wins(object, place, over: existing) else { return .kept }
        kept[record] = Entry(object: object, place: place, section: section(of: object.maker))
        return .replaced(existing.object)
    }

    /// Removes the object kept under a record identifier (a deleted record); returns it, `nil` when none.
    @discardableResult
    package mutating func remove(recordID: String) -> ArtObject? {
        kept.removeValue(forKey: ExactText(recordID))?.object
    }

    /// The object kept under a record identifier.
    package func object(recordID: ExactText) -> ArtObject? {
        kept[recordID]?.object
    }

    /// Number of distinct objects kept.
    package var objectCount: Int { kept.count }

    /// Every kept object, in no particular order.
    package var objects: some Collection<ArtObject> { kept.values.lazy.map(\.object) }

    /// The sections, ordered by maker (`SortKey`, no known maker last), each in `CatalogOrder`.
    package func sections() -> [ArtistSection] {
        var members = [[(key: CatalogOrder.Key, object: ArtObject)]](repeating: [], count: makers.count)
        for entry in kept.values { members[entry.section].append((CatalogOrder.Key(entry.object), entry.object)) }
        var sections: [ArtistSection] = []
        for (section, objects) in members.enumerated() where !objects.isEmpty {
            sections.append(
                ArtistSection(maker: makers[section], objects: objects.sorted { $0.key < $1.key }.map(\.object)))
        }
        return sections.sorted { lhs, rhs in
            switch (lhs.maker, rhs.maker) {
            case (.some(let left), .some(let right)): SortKey.precedes(left, right)
            case (.some, nil): true
            case (nil, _): false
            }
        }
    }

    /// Whether a record at `place` beats the kept copy of its identifier: the later datestamp, then the earlier
    /// place.
    private static func wins(_ object: ArtObject, _ place: Place, over existing: Entry) -> Bool {
        let (new, old) = (object.datestamp ?? "", existing.object.datestamp ?? "")
        if new != old { return new.utf8.lexicographicallyPrecedes(old.utf8) == false }
        return place < existing.place
    }

    /// The section of a maker, opened when it is the first object of that maker.
    private mutating func section(of spelling: String?) -> Int {
        if let section = sectionBySpelling[spelling ?? ""] { return section }
        let maker = MakerName.normalized(spelling)
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
