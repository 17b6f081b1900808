import Foundation
import GRDB
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineStore

/// The SQLite collection store: objects round-trip exactly, changes are counted, and bad stores are refused
/// with a message that names the file and what to do.
@Suite struct CollectionStoreTests {
    private func open(_ folder: TemporaryFolder, startOver: Bool = false) throws -> SQLiteCollectionStore {
        try SQLiteCollectionStore(
            directory: folder.url, source: "rijksmuseum", collection: "rijksmuseum https://museum.example/oai",
            startOver: startOver)
    }

    /// A store of an earlier schema where `open(folder)` looks for the collection's, and its path.
    private static func oldStore(in folder: TemporaryFolder, upTo migration: String) throws -> (DatabaseQueue, String) {
        let stores = folder.url.appendingPathComponent("stores")
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        let path = stores.appendingPathComponent(
            "rijksmuseum-\(SQLiteCollectionStore.digest("rijksmuseum https://museum.example/oai")).sqlite"
        ).path
        let old = try DatabaseQueue(path: path)
        try StoreSchema.migrator.migrate(old, upTo: migration)
        return (old, path)
    }

    /// Objects with every kind of image, no maker, NFC and NFD ids, a datestamp.
    static let objects: [ArtObject] = [
        ArtObject(
            id: "SK-A-2", title: "Night watch", maker: "  Rembrandt  van Rijn ", date: "1642",
            image: ImageReference(
                url: "https://iiif.micr.io/ABC/full/max/0/default.jpg", width: 4000, height: 3000,
                sizing: .iiif(service: "https://iiif.micr.io/ABC", cachedWidths: [400, 843])),
            objectURL: "https://www.rijksmuseum.nl/nl/collectie/SK-A-2", recordID: "https://id.rijksmuseum.nl/2",
            datestamp: "2026-06-09T10:19:51Z",
            details: ObjectDetails(
                description: "Rembrandt’s largest canvas.\n\nMade for the \u{1F}guild\u{1E} hall.",
                objectType: "painting", materials: ["canvas", "oil paint", ""], dimensions: "h 379.5 cm\nw 453.5 cm",
                creditLine: "On loan from the City of Amsterdam", place: "Amsterdam",
                subjects: ["militia", "guild"], yearBegin: -1642, yearEnd: 1642,
                makers: [
                    .init(
                        name: "Rembrandt van Rijn", role: "painter", lifeDates: "1606–1669",
                        sortName: "Rijn, Rembrandt van"),
                    .init(name: "Anonymous"), .init(name: "Jan", lifeDates: "?"),
                ],
                rights: Rights(statement: "http://creativecommons.org/publicdomain/mark/1.0/"), altText: "A militia",
                otherFacts: [
                    .init(label: "Provenance", value: "Kloveniersdoelen; Amsterdam Town Hall"),
                    .init(label: "Part of", value: ""),
                ])),
        ArtObject(
            id: "caf\u{E9}", title: "Composed",
            image: ImageReference(url: "https://lh3.example/x=s0", sizing: .googleImageHost),
            details: ObjectDetails(
                rights: Rights(
                    url: "https://unsplash.com/license", label: "Unsplash License", isOpen: true,
                    attribution: "Photo by Jane on Unsplash",
                    links: [
                        .init(text: "Jane", url: "https://unsplash.com/@jane?utm_source=vitrine&utm_medium=referral"),
                        .init(text: "Unsplash", url: "https://unsplash.com/"),
                    ]))),

        ArtObject(
            id: "cafe\u{301}", title: "Decomposed", maker: "anoniem",
            image: ImageReference(url: "https://images.unsplash.com/p?ixid=1", sizing: .imgix)),
        ArtObject(
            id: "4", title: "Fixed", maker: "Frans Hals",
            image: ImageReference(
                url: "https://a.example/big.jpg", sizing: .fixed(smallURL: "https://a.example/s.jpg", smallWidth: 240)),
            details: ObjectDetails(
                rights: Rights(url: nil, label: "© the artist", isOpen: false, attribution: "Photo: the museum"))),
    ]

    /// Issue 34, item 9: text was bound up to its first NUL, so "Night\0watch" came back as "Night".
    @Test func `text with a NUL byte, bidi controls and every other code point round-trips byte for byte`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        let hostile = "Night\u{0}watch \u{202E}reversed\u{202C} \u{1}\u{7F} \u{FEFF}é e\u{301} \u{10FFFF}"
        let object = ArtObject(
            id: "SK\u{0}A", title: hostile, maker: "Rem\u{0}brandt", date: "16\u{0}42", objectURL: "https://x/\u{0}",
            recordID: "oai:\u{0}1", datestamp: "2026-06-09T10:19:51Z")
        _ = try store.replaceAll(with: [object], state: StoreState(harvests: 1))
        let read = try #require(try store.storedObjects().first)
        for (stored, original) in [
            (read.id, object.id), (read.title, object.title), (read.maker ?? "", object.maker ?? ""),
            (read.date ?? "", object.date ?? ""), (read.objectURL ?? "", object.objectURL ?? ""),
            (read.recordID ?? "", object.recordID ?? ""),
        ] {
            #expect(Array(stored.utf8) == Array(original.utf8))
        }
    }

    /// Issue 34, item 9: a store whose rows went missing without an SQLite error gave a catalog 20 objects short
    /// while the summary counted them all.
    @Test func `a store that reads fewer objects than its sections count is refused, naming it and --full`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        let objects = (0..<300).map { ArtObject(id: "SK-\($0)", title: "T\($0)", maker: "Maker \($0 % 3)") }
        _ = try store.replaceAll(with: objects, state: StoreState(harvests: 1))
        // Rows lost behind SQLite's back: the section counts still say 300.
        let raw = try DatabaseQueue(path: store.location)
        try raw.write { db in try db.execute(sql: "DELETE FROM object WHERE id IN ('SK-3', 'SK-6')") }
        let sections = try store.runSections()
        let listed = try sections.sections()
        #expect(listed.reduce(0) { $0 + $1.count } == 300)
        let error = #expect(throws: ExportError.self) {
            for section in listed { _ = try sections.objects(maker: section.maker, count: section.count) }
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains(store.location) && message.contains("--full"))
        #expect(message.contains("should hold 100 objects, but 98 were read"))
    }

    @Test func `the stored keys among or outside a list are exactly the stored ones, by their bytes`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        _ = try store.replaceAll(with: Self.objects, state: StoreState(harvests: 1))
        let stored = Self.objects.map { $0.recordID ?? $0.id }
        // A key listed twice, one never stored, and NFC "café" asked for where only its NFD twin was left out.
        let asked = [stored[0], stored[0], "nowhere", stored[1]]
        // Swift's `==` takes NFC and NFD for one string: the keys are compared as bytes.
        let bytes = { (keys: [String]) in keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) } }
        #expect(try bytes(store.storedKeys(among: asked)) == bytes([stored[0], stored[1]]))
        #expect(try bytes(store.storedKeys(notIn: asked)) == bytes([stored[2], stored[3]]))
        #expect(try store.storedKeys(among: []).isEmpty)
        #expect(try bytes(store.storedKeys(notIn: [])) == bytes(stored))
    }

    @Test func `objects come back exactly as stored, ids that differ only by normalisation included`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        let changes = try store.replaceAll(
            with: Self.objects, state: StoreState(harvestedAt: "2026-11-22T10:00:00Z", harvests: 1))
        #expect(changes == StoreChanges(new: Self.objects.count))
        let read = try store.storedObjects()
        #expect(read.count == Self.objects.count)
        for object in Self.objects {
            #expect(read.contains { $0 == object && $0.id.utf8.elementsEqual(object.id.utf8) }, "\(object.id)")
        }
        var state = StoreState(harvestedAt: "2026-11-22T10:00:00Z", harvests: 1)
        state.unpublished = changes
        #expect(try store.state() == state)
    }

    @Test func `a full run against the store counts new, changed and deleted records`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        _ = try store.replaceAll(with: Self.objects, state: StoreState(harvests: 1))
        var next = Array(Self.objects.dropFirst())  // SK-A-2 deleted
        next[0].title = "Composed, retitled"  // changed
        next.append(ArtObject(id: "5", title: "New"))  // new
        let changes = try store.replaceAll(with: next, state: StoreState(harvests: 2))
        #expect(changes == StoreChanges(new: 1, changed: 1, deleted: 1))
        #expect(Set(try store.storedObjects().map(\.title)) == Set(next.map(\.title)))
    }

    @Test func `an incremental change writes upserts and deletions, and a harvest under way is remembered`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        _ = try store.replaceAll(with: Self.objects, state: StoreState(harvestedAt: "A", harvests: 1))
        let harvest = PendingHarvest(
            id: PendingHarvest.newID(), changesFrom: "A", startedAt: "B", span: ChangeWindow(from: "E", until: nil))
        try store.begin(harvest)
        #expect(try store.state().pending == harvest)
        let full = PendingHarvest(id: PendingHarvest.newID())
        try store.begin(full)
        #expect(try store.state().pending == full)
        try store.begin(harvest)
        var revised = Self.objects[3]
        revised.date = "1630"
        let changes = try store.apply(
            upserts: [revised, Self.objects[1], ArtObject(id: "6", title: "Six")],
            deletions: ["https://id.rijksmuseum.nl/2", "never stored"],
            state: StoreState(harvestedAt: "B", harvests: 2))
        #expect(changes == StoreChanges(new: 1, changed: 1, deleted: 1))
        // Not published yet: the next commit counts these changes too, until a catalog shows them.
        #expect(try store.state().unpublished == changes)
        try store.published()
        #expect(try store.state() == StoreState(harvestedAt: "B", harvests: 2))
        #expect(try store.storedObjects().count == 4)
    }

    /// A run that starts from the stored collection adds only what it reads, laid over the stored one: what the
    /// server lists replaces what is stored whatever its datestamp, a record deleted and read again later comes back,
    /// one added and deleted again later leaves nothing, an older deletion leaves a newer object alone, and the run's
    /// collection reads the same before its commit and after.
    @Test func `a run laid over the stored collection applies the domain rules as a copy of it did`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        func dated(_ id: String, _ title: String, _ datestamp: String) -> ArtObject {
            ArtObject(id: id, title: title, maker: "Frans Hals", recordID: "r-\(id)", datestamp: datestamp)
        }
        _ = try store.replaceAll(
            with: [dated("A", "A stored", "2026-02"), dated("B", "B stored", "2026-02"), dated("C", "C", "2026-02")],
            state: StoreState(harvestedAt: "T1", harvests: 1))

        let run = try RunCollection(store: store, fromStored: true)
        #expect(run.count == 3)
        func place(_ position: Int) -> SectionIndex.Place { SectionIndex.Place(page: 0, position: position) }
        try run.apply([
            .object(dated("A", "A older copy", "2025-01"), place(0)),
            .deletion("r-B", datestamp: "2026-02", place(1)),
            .object(dated("B", "B again", "2026-03"), place(2)),
            .deletion("r-C", datestamp: "2026-02", place(3)),
            .object(dated("D", "D new", "2026-03"), place(4)),
            .object(dated("E", "E new", "2026-03"), place(5)),
            .deletion("r-E", datestamp: "2026-04", place(6)),
            .deletion("never stored", datestamp: nil, place(7)),
            .object(dated("G", "G new", "2026-05"), place(8)),
            .deletion("r-G", datestamp: "2026-01", place(9)),
        ])
        #expect(run.count == 4)
        #expect(run.duplicates == 0)

        func collection() throws -> [String] {
            let sections = try store.runSections()
            return try sections.sections().flatMap { try sections.objects(maker: $0.maker, count: $0.count) }
                .map(\.title).sorted()
        }
        let kept = ["A older copy", "B again", "D new", "G new"]
        #expect(try collection() == kept)
        let changes = try store.commitRun(incremental: true, state: StoreState(harvestedAt: "T2", harvests: 2))
        #expect(changes == StoreChanges(new: 2, changed: 2, deleted: 1))
        #expect(try collection() == kept)
        #expect(try store.storedObjects().map(\.title).sorted() == kept)

        // A full commit of a run laid over the stored collection keeps what the run did not touch.
        let again = try RunCollection(store: store, fromStored: true)
        try again.apply([
            .object(dated("F", "F new", "2026-04"), place(0)), .deletion("r-A", datestamp: nil, place(1)),
        ])
        let full = try store.commitRun(incremental: false, state: StoreState(harvestedAt: "T3", harvests: 3))
        #expect(full == StoreChanges(new: 1, deleted: 1))
        #expect(try store.storedObjects().map(\.title).sorted() == ["B again", "D new", "F new", "G new"])
    }

    @Test func `the run's sections and its bundled pictures are listed, over the stored collection and after it`()
        throws
    {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        func bundled(_ id: String, maker: String?) -> ArtObject {
            ArtObject(
                id: id, title: id, maker: maker, image: ImageReference(url: "images/\(id).jpg", sizing: .bundled),
                recordID: "r-\(id)")
        }
        func listing() throws -> (sections: [String], bundled: [String]) {
            let sections = try store.runSections()
            return (
                try sections.sections().map { "\($0.maker ?? "-") \($0.count)" }.sorted(),
                try sections.bundledImageURLs().sorted()
            )
        }
        // Stored objects without a bundled picture: none is listed, and the sections are.
        _ = try store.replaceAll(with: Self.objects, state: StoreState(harvestedAt: "T1", harvests: 1))
        _ = try RunCollection(store: store, fromStored: true)
        #expect(try listing().bundled == [])
        #expect(try listing().sections == ["- 2", "Frans Hals 1", "Rembrandt van Rijn 1"])

        // A run laid over them that adds two bundled pictures, one in a new section, and deletes an object.
        let run = try RunCollection(store: store, fromStored: true)
        let place = SectionIndex.Place(page: 0, position: 0)
        try run.apply([
            .object(bundled("b1", maker: "Frans Hals"), place), .object(bundled("b2", maker: "Judith Leyster"), place),
            .deletion("https://id.rijksmuseum.nl/2", datestamp: nil, SectionIndex.Place(page: 1, position: 0)),
        ])
        let expected = (
            sections: ["- 2", "Frans Hals 2", "Judith Leyster 1"], bundled: ["images/b1.jpg", "images/b2.jpg"]
        )
        #expect(try listing() == expected)
        _ = try store.commitRun(incremental: true, state: StoreState(harvestedAt: "T2", harvests: 2))
        #expect(try listing() == expected)
    }

    @Test func `the sections' counts kept with the objects are what counting the objects gives, run after run`()
        throws
    {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        let path = folder.url.appendingPathComponent("stores").appendingPathComponent(
            "rijksmuseum-\(SQLiteCollectionStore.digest("rijksmuseum https://museum.example/oai")).sqlite"
        ).path
        func object(_ id: String, maker: String?, bundled: Bool = false, title: String? = nil) -> ArtObject {
            ArtObject(
                id: id, title: title ?? id, maker: maker,
                image: ImageReference(url: "images/\(id).jpg", sizing: bundled ? .bundled : .googleImageHost),
                recordID: "r-\(id)")
        }
        /// The `section` table, and the same counted from the objects.
        func counts() throws -> (kept: [String], counted: [String]) {
            try DatabaseQueue(path: path).read { db in
                func lines(_ sql: String) throws -> [String] {
                    try Row.fetchAll(db, sql: sql).map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" }
                }
                return (
                    try lines("SELECT section_key, objects, bundled FROM section ORDER BY section_key"),
                    try lines(
                        "SELECT section_key, count(*), sum(image_sizing = 'bundled') FROM object GROUP BY section_key "
                            + "ORDER BY section_key")
                )
            }
        }
        _ = try store.replaceAll(
            with: [
                object("a", maker: "Frans Hals"), object("b", maker: "Frans Hals", bundled: true),
                object("c", maker: "Judith Leyster"), object("d", maker: nil), object("e", maker: "Jan Steen"),
            ],
            state: StoreState(harvestedAt: "T1", harvests: 1))
        #expect(try counts().kept == [" 1 0", "Frans Hals 2 1", "Jan Steen 1 0", "Judith Leyster 1 0"])
        #expect(try counts().kept == counts().counted)

        // A night: one object moves to another maker (and loses its bundled picture), one is deleted (its section
        // goes), one is new with a bundled picture, one is harvested unchanged, one is revised in place, one deleted
        // record was never stored.
        let changes = try store.apply(
            upserts: [
                object("b", maker: "Judith Leyster"), object("f", maker: "Clara Peeters", bundled: true),
                object("a", maker: "Frans Hals"), object("c", maker: "Judith Leyster", title: "c revised"),
            ],
            deletions: ["r-e", "r-never"], state: StoreState(harvestedAt: "T2", harvests: 2))
        #expect(changes == StoreChanges(new: 1, changed: 2, deleted: 1))
        #expect(try counts().kept == ["Clara Peeters 1 1", "Frans Hals 1 0", "Judith Leyster 2 0", " 1 0"].sorted())
        #expect(try counts().kept == counts().counted)
        let sections = try store.runSections()
        #expect(
            try sections.sections().map { "\($0.maker ?? "-") \($0.count)" }.sorted() == [
                "- 1", "Clara Peeters 1", "Frans Hals 1", "Judith Leyster 2",
            ])
        #expect(try sections.bundledImageURLs() == ["images/f.jpg"])
    }

    @Test func `every image sizing reads back from its bytes as it was written, and anything else as no sizing`() {
        let sizings: [ImageReference.Sizing] = [
            .googleImageHost, .imgix, .bundled, .iiif(service: "https://iiif.micr.io/ABC", cachedWidths: []),
            .iiif(service: "https://iiif.micr.io/ABC", cachedWidths: [200, 400, 843]),
            .iiif(service: "", cachedWidths: [1]),
            .fixed(smallURL: nil, smallWidth: nil), .fixed(smallURL: "https://a.example/s.jpg", smallWidth: nil),
            .fixed(smallURL: nil, smallWidth: 240), .fixed(smallURL: "https://a.example/s.jpg?a=1,2", smallWidth: 240),
        ]
        func read(_ text: String) -> ImageReference.Sizing {
            var text = text
            return text.withUTF8 { ObjectRow.sizing(from: $0) }
        }
        for sizing in sizings {
            #expect(read(ObjectRow.sizing(sizing)) == sizing)
        }
        let none = ImageReference.Sizing.fixed(smallURL: nil, smallWidth: nil)
        for text in [
            "", "googl", "google\u{1F}", "iiif\u{1F}x", "iiif\u{1F}a\u{1F}b\u{1F}c", "fixed", "IIIF\u{1F}a\u{1F}1",
        ] {
            #expect(read(text) == none)
        }
        #expect(read("iiif\u{1F}s\u{1F}400,,x,843") == .iiif(service: "s", cachedWidths: [400, 843]))
    }

    @Test func `a store of the first schema is migrated, its objects kept and given section keys`() throws {
        let folder = try TemporaryFolder()
        // A version-1 store, as Vitrine 0.13's first build wrote it.
        let (old, path) = try Self.oldStore(in: folder, upTo: "v1-objects")
        try old.write { db in
            try db.execute(
                sql: "INSERT INTO object (record_key, id, title, maker) VALUES (?, 'SK-C-5', 'The Night Watch', ?)",
                arguments: [Data("SK-C-5".utf8), " Rembrandt   van Rijn"])
            try db.execute(sql: "INSERT INTO harvest VALUES ('harvests', '1'), ('harvested_at', '2026-01-01')")
        }
        try old.close()

        let store = try open(folder)
        #expect(try store.storedObjects().map(\.title) == ["The Night Watch"])
        // Version 6 gives objects details their harvest did not keep: the next run harvests everything again.
        #expect(try store.state().harvestedAt == nil)
        #expect(try store.state().harvests == 1)
        let (key, section) = try DatabaseQueue(path: path).read { db in
            (
                try String.fetchOne(db, sql: "SELECT section_key FROM object"),
                try Row.fetchOne(db, sql: "SELECT section_key, objects, bundled FROM section")
                    .map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" }
            )
        }
        #expect(key == "Rembrandt van Rijn")
        // The sections' counts (version 5) are made from the objects.
        #expect(section == "Rembrandt van Rijn 1 0")
    }

    @Test func `a store of the seventh schema is ordered by year range again, and harvested whole next`() throws {
        let folder = try TemporaryFolder()
        let (old, path) = try Self.oldStore(in: folder, upTo: "v7-other-facts")
        // One maker's objects as version 7 ordered them, by the digits of their date: `17th century` and `50 BC`
        // were undated, last.
        let dated: [(id: String, date: String, begin: Int)] = [
            ("SK-A-1", "1650", 1650), ("SK-A-2", "17th century", 1600), ("SK-A-3", "50 BC", -50),
            ("SK-A-4", "1599", 1599),
        ]
        try old.write { db in
            for (number, object) in dated.enumerated() {
                let oldYear = CatalogOrder.firstYear(in: object.date) ?? Int.max
                var key = Array(withUnsafeBytes(of: (UInt64(bitPattern: Int64(oldYear)) ^ (1 << 63)).bigEndian) { $0 })
                key.append(UInt8(number))
                try db.execute(
                    sql: "INSERT INTO object (record_key, id, title, maker, date, section_key, order_key, year_begin) "
                        + "VALUES (?, ?, 'T', 'Frans Hals', ?, 'Frans Hals', ?, ?)",
                    arguments: [Data(object.id.utf8), object.id, object.date, Data(key), object.begin])
            }
            try db.execute(sql: "INSERT INTO section VALUES ('Frans Hals', 4, 0)")
            try db.execute(sql: "INSERT INTO harvest VALUES ('harvests', '3'), ('harvested_at', '2026-01-01')")
        }
        try old.close()

        let store = try open(folder)
        _ = try store.startRun(fromStored: true)
        let hals = try store.runSections().objects(maker: "Frans Hals", count: 4)
        #expect(hals.map(\.id) == ["SK-A-3", "SK-A-4", "SK-A-2", "SK-A-1"])
        #expect(try store.state().harvestedAt == nil && store.state().harvests == 3)
        let keys = try DatabaseQueue(path: path).read { db in
            try Data.fetchAll(db, sql: "SELECT order_key FROM object ORDER BY section_key, order_key, record_key")
        }
        #expect(keys == hals.map { Data(CatalogOrder.Key($0).bytes) })
    }

    @Test func `a store of the third schema is migrated to one clustered by section, read back in catalog order`()
        throws
    {
        let folder = try TemporaryFolder()
        // A version-3 store (Vitrine before the order key): one maker's objects, their record keys in another
        // order than their catalog order, and an object of another maker.
        let (old, path) = try Self.oldStore(in: folder, upTo: "v3-composed-section-key")
        let rows: [(record: String, id: String, date: String?, maker: String)] = [
            ("r1", "SK-A-10", "1650", "Frans Hals"), ("r2", "SK-A-2", "1650", "Frans Hals"),
            ("r3", "SK-A-1", nil, "Frans Hals"), ("r4", "SK-A-7", "500 BC", "Frans Hals"),
            ("r5", "SK-C-5", "1642", "Rembrandt van Rijn"),
        ]
        try old.write { db in
            for row in rows {
                try db.execute(
                    sql: "INSERT INTO object (record_key, id, title, maker, date, record_id, section_key) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [
                        Data(row.record.utf8), row.id, "Title \(row.id)", row.maker, row.date, row.record, row.maker,
                    ])
            }
            try db.execute(sql: "INSERT INTO harvest VALUES ('harvests', '1'), ('harvested_at', '2026-01-01')")
        }
        try old.close()

        let store = try open(folder)
        #expect(try store.startRun(fromStored: true) == 5)
        let sections = try store.runSections()
        #expect(try sections.sections().sorted { ($0.maker ?? "") < ($1.maker ?? "") }.map(\.count) == [4, 1])
        // By year (500 BC first), undated last, then number in natural order: what CatalogOrder says.
        let hals = try sections.objects(maker: "Frans Hals", count: 4)
        #expect(hals.map(\.id) == ["SK-A-7", "SK-A-2", "SK-A-10", "SK-A-1"])
        let keys = hals.map(CatalogOrder.Key.init)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try store.state().harvestedAt == nil)
        // Record keys stay unique: a second row with one of them is refused.
        let inserted = try DatabaseQueue(path: path).write { db in
            (try? db.execute(
                sql:
                    "INSERT INTO object (record_key, id, title, section_key, order_key) VALUES (?, 'x', 'x', 'Z', x'00')",
                arguments: [Data("r1".utf8)])) != nil
        }
        #expect(!inserted)
    }

    @Test func `a store of the fifth schema is given details, and its next run is a full one`() throws {
        let folder = try TemporaryFolder()
        let (old, _) = try Self.oldStore(in: folder, upTo: "v5-section-counts")
        try old.write { db in
            try db.execute(
                sql: "INSERT INTO object (record_key, id, title, maker, section_key, order_key) "
                    + "VALUES (?, 'SK-C-5', 'The Night Watch', 'Rembrandt van Rijn', 'Rembrandt van Rijn', x'00')",
                arguments: [Data("SK-C-5".utf8)])
            try db.execute(sql: "INSERT INTO harvest VALUES ('harvests', '3'), ('harvested_at', '2026-01-01')")
        }
        try old.close()
        let store = try open(folder)
        // Read by its section: the rows written here by hand are not counted in the old store's section table.
        _ = try store.startRun(fromStored: true)
        let read = try store.runSections().objects(maker: "Rembrandt van Rijn", count: 1)
        #expect(read.map(\.title) == ["The Night Watch"] && read.allSatisfy(\.details.isEmpty))
        #expect(try store.state().harvestedAt == nil && store.state().harvests == 3)
        _ = try store.replaceAll(with: Self.objects, state: StoreState(harvestedAt: "2026-02-01", harvests: 4))
        // By the ids' bytes: `café` composed and decomposed are two ids, which `<` on strings takes for one.
        func byID(_ objects: [ArtObject]) -> [ArtObject] {
            objects.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        }
        #expect(try byID(store.storedObjects()) == byID(Self.objects))
    }

    @Test func `a store of the sixth schema keeps its objects and details, and its next run is a full one`() throws {
        let folder = try TemporaryFolder()
        let (old, _) = try Self.oldStore(in: folder, upTo: "v6-object-details")
        try old.write { db in
            try db.execute(
                sql: "INSERT INTO object (record_key, id, title, maker, section_key, order_key, description) "
                    + "VALUES (?, 'SK-C-5', 'The Night Watch', 'Rembrandt van Rijn', 'Rembrandt van Rijn', x'00', 'Big')",
                arguments: [Data("SK-C-5".utf8)])
            try db.execute(sql: "INSERT INTO harvest VALUES ('harvests', '3'), ('harvested_at', '2026-01-01')")
        }
        try old.close()
        let store = try open(folder)
        // Read by its section: the rows written here by hand are not counted in the old store's section table.
        _ = try store.startRun(fromStored: true)
        let read = try store.runSections().objects(maker: "Rembrandt van Rijn", count: 1)
        #expect(read.map(\.details.description) == ["Big"] && read.allSatisfy(\.details.otherFacts.isEmpty))
        // Its objects were harvested without their other facts: a night would keep them so.
        #expect(try store.state().harvestedAt == nil && store.state().harvests == 3)
    }

    @Test func `a run's sections show what the selection shows, stored or laid over the store`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        _ = try store.replaceAll(with: Self.objects, state: StoreState(harvests: 1))
        func shown(_ selection: CatalogSelection) throws -> [String] {
            let sections = try store.runSections(showing: selection)
            return try sections.sections().flatMap { section in
                try sections.objects(maker: section.maker, count: section.count).map(\.id)
            }.sorted()
        }
        #expect(try shown(.all).count == 4)
        #expect(try shown(.openAccess) == ["SK-A-2", "caf\u{E9}"])
        #expect(try shown(.withRights) == ["4", "SK-A-2", "caf\u{E9}"])
        // Laid over the store, with a change in the run: the run's version is the one selected.
        #expect(try store.startRun(fromStored: true) == 4)
        var closed = Self.objects[0]
        closed.details.rights = Rights(url: nil, label: "© the museum", isOpen: false)
        _ = try store.addToRun([.object(closed, .init(page: 0, position: 0))]) { _, _ in true }
        #expect(try shown(.openAccess) == ["caf\u{E9}"])
    }

    @Test func `each section's sort name is the least its objects' first makers give, and none without`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        func object(_ id: String, _ maker: String, _ sortName: String?) -> ArtObject {
            ArtObject(
                id: id, title: id, maker: maker,
                details: ObjectDetails(makers: [.init(name: maker, sortName: sortName)]))
        }
        let objects = [
            object("1", "Vincent van Gogh", "Gogh, Vincent van"), object("2", "Vincent van Gogh", "Gogh, V."),
            object("3", "Vincent van Gogh", nil), object("4", "Frans Hals", nil),
        ]
        _ = try store.replaceAll(with: objects, state: StoreState(harvests: 1))
        #expect(try store.runSections(showing: .all).sortNames() == ["Vincent van Gogh": "Gogh, V."])
        #expect(try store.runSections(showing: .openAccess).sortNames().isEmpty)
    }

    @Test func `a list's items and a maker's fields keep no separator, so every list reads back as written`() throws {
        let folder = try TemporaryFolder()
        let store = try open(folder)
        let details = ObjectDetails(
            materials: ["a\u{1F}b", "c\u{1E}d"], subjects: [""],
            makers: [.init(name: "x\u{1E}y", role: "r\u{1F}s", sortName: "")],
            otherFacts: [.init(label: "a\u{1E}b", value: "c\u{1E}d\u{1F}e"), .init(label: "", value: "")])
        _ = try store.replaceAll(
            with: [ArtObject(id: "1", title: "t", details: details)], state: StoreState(harvests: 1))
        let read = try #require(try store.storedObjects().first).details
        #expect(read.materials == ["a b", "c d"] && read.subjects == [""])
        #expect(read.makers == [.init(name: "x y", role: "r s")])
        #expect(read.otherFacts == [.init(label: "a b", value: "c d e"), .init(label: "", value: "")])

        // Lists cut byte by byte read back as written beside any character: combining marks, emoji, CR LF.
        var random = SplitMix64(seed: 36)
        let alphabet: [String] = ["a", "é", "\u{301}", "\u{1F}", "\u{1E}", "\r\n", "👩‍🎨", "日", " ", ""]
        let texts = (0..<60).map { _ in
            (0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "" }
                .joined()
        }
        func stored(_ text: String) -> String { String(text.map { $0 == "\u{1F}" || $0 == "\u{1E}" ? " " : $0 }) }
        let many = ObjectDetails(
            materials: Array(texts[0..<20]),
            makers: stride(from: 20, to: 40, by: 2).map { .init(name: texts[$0] + "x", role: texts[$0 + 1]) },
            otherFacts: stride(from: 40, to: 60, by: 2).map { .init(label: texts[$0], value: texts[$0 + 1]) })
        _ = try store.replaceAll(with: [ArtObject(id: "2", title: "t", details: many)], state: StoreState(harvests: 2))
        let back = try #require(try store.storedObjects().first).details
        #expect(back.materials == many.materials.map(stored))
        #expect(back.makers.map(\.name) == many.makers.map { stored($0.name) })
        #expect(back.makers.map { $0.role ?? "" } == many.makers.map { stored($0.role ?? "") })
        #expect(back.otherFacts == many.otherFacts.map { .init(label: stored($0.label), value: stored($0.value)) })
    }

    @Test func `a foreign database, a newer store and garbage are refused with the path and what to do`() throws {
        for damage in ["foreign", "newer", "garbage"] {
            let folder = try TemporaryFolder()
            let path = try open(folder).location  // created, then closed
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            switch damage {
            case "foreign":
                try FileManager.default.removeItem(atPath: path)
                let other = try DatabaseQueue(path: path)
                try other.write { try $0.execute(sql: "CREATE TABLE photos (id INTEGER)") }
                try other.close()
            case "newer":
                let newer = try DatabaseQueue(path: path)
                try newer.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9-from-the-future')") }
                try newer.close()
            default:
                try Data(repeating: 0xAB, count: 4_096).write(to: URL(fileURLWithPath: path))
            }
            let error = #expect(throws: ExportError.self, "\(damage)") { try open(folder) }
            let message = error?.description ?? ""
            #expect(message.contains(path), "\(damage): \(message)")
            #expect(message.contains("--full"), "\(damage): \(message)")
            // `--full` makes it anew.
            let anew = try open(folder, startOver: true)
            #expect(try anew.storedObjects().isEmpty)
        }
    }

    @Test func `a second export of the same collection is refused while the first holds the store`() throws {
        let folder = try TemporaryFolder()
        do {
            let first = try open(folder)
            withExtendedLifetime(first) {
                let error = #expect(throws: ExportError.self) { try open(folder) }
                #expect(error?.description.contains("another vitrine export is harvesting this collection") == true)
            }
        }
        // Once the first is gone (its process ended), the store opens again.
        _ = try open(folder)
    }
}
