/// Objects grouped by maker as they arrive: each object joins the existing section of its maker (found by
/// dictionary, never by a scan) or opens a new one.
///
/// Arrival order does not matter: every object carries its place in the source (page index, position), a
/// section's objects are put in that order when the index is read, and of two records with the same id the
/// one earlier in the source is kept. So the same collection always gives the same sections.
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

    private struct Entry: Sendable {
        var place: Place
        var object: ArtObject
    }

    private struct Bucket: Sendable {
        var maker: String?
        var entries: [Entry]
    }

    private var bucketByMaker: [String: Int] = [:]
    /// The bucket of each maker name as the source spells it: most objects skip normalising their maker.
    private var bucketBySpelling: [String: Int] = [:]
    private var buckets: [Bucket] = []
    /// Where the kept copy of each id sits.
    private var keptPlace: [ExactText: Place] = [:]
    /// Records seen under an id already seen.
    package private(set) var duplicates = 0

    package init() {}

    /// Adds an object at its place in the source; a repeated id is counted, and the earlier copy wins.
    package mutating func insert(_ object: ArtObject, at place: Place) {
        // One hash in the common case: the place is stored, and put back if an earlier copy was already kept.
        let record = object.recordKey
        if let kept = keptPlace.updateValue(place, forKey: record) {
            duplicates += 1
            guard place < kept else {
                keptPlace[record] = kept
                return
            }
        }
        let spelling = object.maker ?? ""
        if let bucket = bucketBySpelling[spelling] {
            buckets[bucket].entries.append(Entry(place: place, object: object))
            return
        }
        let maker = MakerName.normalized(object.maker)
        let key = maker ?? ""
        if let bucket = bucketByMaker[key] {
            buckets[bucket].entries.append(Entry(place: place, object: object))
            bucketBySpelling[spelling] = bucket
        } else {
            bucketByMaker[key] = buckets.count
            bucketBySpelling[spelling] = buckets.count
            buckets.append(Bucket(maker: maker, entries: [Entry(place: place, object: object)]))
        }
    }

    /// Number of distinct objects kept.
    package var objectCount: Int { keptPlace.count }

    /// The sections, each in source order, ordered by where their first object appears in the source.
    package func sections() -> [ArtistSection] {
        let ordered: [(first: Place, section: ArtistSection)] = buckets.compactMap { bucket in
            // Without repeated ids every entry is the kept copy; pages handed over in order are already sorted.
            var kept =
                duplicates == 0 ? bucket.entries : bucket.entries.filter { keptPlace[$0.object.recordKey] == $0.place }
            if !kept.isSorted(by: { $0.place < $1.place }) { kept.sort { $0.place < $1.place } }
            guard let first = kept.first else { return nil }
            return (first.place, ArtistSection(maker: bucket.maker, objects: kept.map(\.object)))
        }
        return ordered.sorted { $0.first < $1.first }.map(\.section)
    }
}

extension Array {
    /// Whether the elements are in the order `areInIncreasingOrder` defines.
    fileprivate func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        zip(self, dropFirst()).allSatisfy { !areInIncreasingOrder($1, $0) }
    }
}
