import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore

@Suite struct ExportInteractorTests {
    // MARK: - Subject under test

    private func harvest(_ pages: [[RecordOutcome]], concurrency: Int = 4, broken: Set<Int> = []) async throws
        -> HarvestedCollection
    {
        let spy = ExportPresentationLogicSpy()
        let interactor = ExportInteractor(
            source: StubSource(pages: pages), transport: StubTransport(broken: broken), presenter: spy)
        return try await interactor.harvest(options: HarvestOptions(concurrency: concurrency))
    }

    private func objects(_ makers: [(String, String?)]) -> [RecordOutcome] {
        makers.map { .object(Seeds.object($0.0, $0.1)) }
    }

    // MARK: - Tests

    @Test func `Allemand on page 45 joins Allemand's section, not the end`() async throws {
        // Given: sorted by artist, page 1 ends with Simon Fokke and page 45 starts with Hector Allemand.
        var pages = Array(repeating: [RecordOutcome](), count: 45)
        pages[0] = objects([("A-1", "Hector Allemand"), ("F-1", "Simon Fokke")])
        for page in 1..<44 { pages[page] = objects([("M-\(page)", "Maker \(page)")]) }
        pages[44] = objects([("A-2", "Hector Allemand"), ("Z-1", "Zeeman")])

        // When
        let response = try await harvest(pages)

        // Then
        let allemand = try #require(response.sections.first { $0.maker == "Hector Allemand" })
        #expect(allemand.objects.map(\.id) == ["A-1", "A-2"])
        #expect(response.sections.filter { $0.maker == "Hector Allemand" }.count == 1)
        #expect(response.sections.last?.maker == "Zeeman")
        #expect(response.statistics.pages == 45)
        #expect(response.statistics.objects == 47)
    }

    @Test func `a maker who comes back many pages later keeps one section, in catalog order`() async throws {
        let pages = [
            objects([("R-10", "Rembrandt van Rijn"), ("R-2", "Rembrandt van Rijn")]),
            objects([("S-1", "Jan Steen")]), objects([("V-1", "Johannes Vermeer")]), objects([("H-1", "Frans Hals")]),
            objects([("R-3", "Rembrandt van Rijn"), ("S-2", "Jan Steen")]),
        ]
        let response = try await harvest(pages)
        // Sections by maker, objects by number in natural order (the seeds are undated): never by page.
        #expect(
            response.sections.map(\.maker) == ["Frans Hals", "Jan Steen", "Johannes Vermeer", "Rembrandt van Rijn"])
        #expect(response.sections[3].objects.map(\.id) == ["R-2", "R-3", "R-10"])
        #expect(response.sections[1].objects.map(\.id) == ["S-1", "S-2"])
    }

    @Test func `concurrency 1 and 8 give the same sections`() async throws {
        let pages = (0..<30).map { page in
            objects((0..<5).map { ("O-\(page)-\($0)", "Maker \(($0 * 7 + page) % 6)") })
        }
        let serial = try await harvest(pages, concurrency: 1)
        let concurrent = try await harvest(pages, concurrency: 8)
        #expect(serial.sections == concurrent.sections)
        #expect(serial.statistics.objects == 150)
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func `pages arriving in any order give the same sections`(seed: UInt64) {
        // Given: pages with repeated makers and a repeated id, inserted in a shuffled order.
        let pages: [[ArtObject]] =
            (0..<12).map { page in
                (0..<6).map {
                    Seeds.object("O-\(page)-\($0)", ["Bol", "Hals", nil, "Steen", "Émile"][($0 + page) % 5])
                }
            } + [[Seeds.object("O-0-0", "Somebody else")]]
        var inOrder = SectionIndex()
        for (page, objects) in pages.enumerated() {
            for (position, object) in objects.enumerated() {
                inOrder.insert(object, at: .init(page: page, position: position))
            }
        }
        var generator = SplitMix64(seed: seed)
        var shuffled = SectionIndex()
        for page in Array(pages.indices).shuffled(using: &generator) {
            for (position, object) in pages[page].enumerated() {
                shuffled.insert(object, at: .init(page: page, position: position))
            }
        }

        // Then
        #expect(shuffled.sections() == inOrder.sections())
        #expect(shuffled.duplicates == 1)
        // The repeat on the last page is the later place: it stays.
        #expect(inOrder.sections().first { $0.maker == "Somebody else" }?.objects.map(\.id) == ["O-0-0"])
    }

    @Test func `an id seen twice with one datestamp is kept once, the later copy, and counted`() async throws {
        let pages = [
            objects([("SK-A-1", "Jan Steen"), ("SK-A-2", "Jan Steen")]),
            objects([("SK-A-2", "Jan Steen"), ("SK-A-3", "Frans Hals")]),
            [.object(Seeds.object("SK-A-1", "Frans Hals", title: "Moved"))],
        ]
        let response = try await harvest(pages)
        #expect(response.statistics.duplicates == 2)
        #expect(response.statistics.objects == 3)
        #expect(response.sections.map { $0.objects.map(\.id) } == [["SK-A-1", "SK-A-3"], ["SK-A-2"]])
        #expect(response.sections[0].objects[0].title == "Moved")
    }

    @Test func `an undecodable record is skipped with a warning naming page and position`() async throws {
        let pages: [[RecordOutcome]] = [
            objects([("A", "Bol")]),
            [
                .object(Seeds.object("B", "Bol")), .skipped(reason: "missing field objectNumber"),
                .object(Seeds.object("C", "Hals")),
            ],
        ]
        let response = try await harvest(pages)
        #expect(response.statistics.skipped == 1)
        #expect(response.statistics.objects == 3)
        #expect(
            response.statistics.warnings == [
                RecordWarning(page: "2", position: 2, reason: "missing field objectNumber")
            ])
        #expect(response.statistics.warnings.first?.description == "page 2, record 2: missing field objectNumber")
    }

    @Test func `an undecodable page fails the run with one line naming its URL, key hidden`() async throws {
        let pages = [objects([("A", "Bol")]), objects([("B", "Bol")]), objects([("C", "Bol")])]
        let error = await #expect(throws: ExportError.self) { try await harvest(pages, broken: [3]) }
        #expect(
            error?.description
                == "test: page 3 (http://127.0.0.1/stub?page=3&key=***): the page could not be read: not valid JSON")
        #expect(error?.description.contains("s3cret") == false)
    }

    @Test func `objects with no maker or an anonymous label share one section`() async throws {
        // Found by a hostile check: names of invisible characters made sections with empty headings, and one
        // name with a zero-width space, a bidi override or DEL in it made sections of its own.
        let pages = [
            objects([
                ("A", nil), ("B", ""), ("C", "anoniem"), ("D", "  Jan   Steen "), ("E", "Jan Steen"), ("F", "\u{200B}"),
                ("G", "\u{202E}\u{202C}"), ("H", "\u{7F}"), ("I", "Jan\u{200B} Steen"), ("J", "Jan \u{202E}Steen"),
                ("K", "Jan\tSteen\u{7F}"), ("L", "\u{FEFF}anoniem"),
            ])
        ]
        let response = try await harvest(pages)
        #expect(response.sections.map(\.maker) == ["Jan Steen", nil])
        #expect(response.sections[0].objects.map(\.id) == ["D", "E", "I", "J", "K"])
        #expect(response.sections[1].objects.map(\.id) == ["A", "B", "C", "F", "G", "H", "L"])
    }
}

/// Ids are compared exactly as the source gives them (issue 12, item 5).
@Suite struct RecordIdentityTests {
    @Test func `ids that differ only by Unicode normalisation are two records, both kept`() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's String equality: canonical equivalence.
        var index = SectionIndex()
        index.insert(Seeds.object(composed, "M"), at: SectionIndex.Place(page: 0, position: 0))
        index.insert(Seeds.object(decomposed, "M"), at: SectionIndex.Place(page: 0, position: 1))
        index.insert(Seeds.object(composed, "M"), at: SectionIndex.Place(page: 1, position: 0))
        #expect(index.objectCount == 2)
        #expect(index.duplicates == 1)
        // Both kept, in the order of their bytes (`e` + accent before the precomposed `é`).
        #expect(
            index.sections().flatMap(\.objects).map { Array($0.id.utf8) } == [
                Array(decomposed.utf8), Array(composed.utf8),
            ])
    }

    @Test func `a record id tells repeats apart where the displayed ids are the same`() {
        var index = SectionIndex()
        var first = Seeds.object("0039-3681", "M")
        first.recordID = "oai:x:1"
        var second = first
        second.recordID = "oai:x:2"
        index.insert(first, at: SectionIndex.Place(page: 0, position: 0))
        index.insert(second, at: SectionIndex.Place(page: 0, position: 1))
        #expect(index.objectCount == 2)
    }
}

/// The index keeps its entries in one array; deleted records stay as entries that only compete (issue 13, memory).
@Suite struct SectionIndexStorageTests {
    @Test func `deleted, replaced and added again: counts, lookups and sections agree`() {
        var index = SectionIndex()
        let place = { (position: Int) in SectionIndex.Place(page: 0, position: position) }
        index.insert(Seeds.object("A-1", "Anna"), at: place(0))
        index.insert(Seeds.object("A-2", "Anna"), at: place(1))
        index.insert(Seeds.object("B-1", "Bert"), at: place(2))
        #expect(index.delete(recordID: "A-1", datestamp: nil, at: place(3)) == .replaced)
        #expect(index.objectCount == 2)
        #expect(!index.sections().flatMap(\.objects).contains { $0.id == "A-1" })
        var revised = Seeds.object("A-2", "Bert")
        revised.title = "Revised"
        revised.datestamp = "2026-11-24"
        #expect(index.insert(revised, at: place(4)) == .replaced)
        index.insert(Seeds.object("A-1", "Anna"), at: place(5))
        #expect(index.objectCount == 3)
        #expect(index.sections().flatMap(\.objects).map(\.id).sorted() == ["A-1", "A-2", "B-1"])
        #expect(index.sections().flatMap(\.objects).first { $0.id == "A-2" }?.title == "Revised")
        let sections = index.sections()
        #expect(sections.map(\.maker) == ["Anna", "Bert"])
        #expect(sections.map { $0.objects.map(\.id) } == [["A-1"], ["A-2", "B-1"]])
        // `takeSections` gives the same and leaves nothing behind.
        #expect(index.takeSections() == sections)
        #expect(index.objectCount == 0 && index.sections().isEmpty)
    }
}

/// An export in which nothing could be read fails, saying why, instead of writing an empty catalog.
@Suite struct NothingReadableTests {
    @Test func `every record skipped fails the export with the first reason`() async throws {
        let spy = ExportPresentationLogicSpy()
        let interactor = ExportInteractor(
            source: StubSource(pages: [[.skipped(reason: "oai:x:1 is in a metadata format Vitrine cannot read")]]),
            transport: StubTransport(), presenter: spy, sleeper: RecordingSleeper())
        let error = await #expect(throws: ExportError.self) {
            try await interactor.export(request: ExportRequest())
        }
        #expect(
            error?.description
                == "test: none of the 1 records read could be used (the first: oai:x:1 is in a metadata format "
                + "Vitrine cannot read); nothing was written")
        #expect(spy.starts.isEmpty && spy.parts.isEmpty && spy.ends.isEmpty)
    }
}

/// The order inside a section (issue 13, item 3), whatever order the objects come in.
@Suite struct CatalogOrderTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func `sorted by their keys' bytes, as the store reads them, objects go by year, then number`(
        seed: UInt64
    ) {
        // Given: dated, undated and BC objects whose numbers sort differently as text and as numbers, shuffled.
        let dates: [String?] = ["1650", nil, "c. 1642 - c. 1645", "500 BC", "17th century", "1650"]
        var objects = (1...40).map { number -> ArtObject in
            var object = Seeds.object("SK-A-\(number)", "M")
            object.date = dates[number % dates.count]
            return object
        }
        var generator = SplitMix64(seed: seed)
        objects.shuffle(using: &generator)
        // When: sorted as SQLite sorts the stored `order_key` and `record_key` BLOBs (byte by byte, shorter first).
        let sorted = objects.sorted { Self.storeOrder($0, $1) }
        // Then: every object once, each pair in the order of its keys.
        #expect(Set(sorted.map(\.id)) == Set(objects.map(\.id)))
        #expect(sorted.count == objects.count)
        let keys = sorted.map(CatalogOrder.Key.init)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(sorted.first?.date == "500 BC")
        #expect(
            sorted.prefix(7).map(\.id) == ["SK-A-3", "SK-A-9", "SK-A-15", "SK-A-21", "SK-A-27", "SK-A-33", "SK-A-39"])
        #expect(sorted.suffix(14).allSatisfy { $0.date == nil || $0.date == "17th century" })
    }

    @Test func `a key's bytes compare as the key does, prefixes, zero bytes and ties of number included`() {
        // Numbers that start one another, that differ only by leading zeros or by a zero byte, ids that are empty;
        // dates far apart, BC and none; records that tie the rest.
        let ids = [
            "", "0", "00", "0\u{0}", "A", "A\u{0}", "A\u{0}\u{0}", "A\u{1}", "SK-A-1", "SK-A-01", "SK-A-1a",
            "SK-A-10", "SK-A-2", "SK-A-2\u{0}b", "BK-16676", "É-1", "😀",
        ]
        let dates: [String?] = [nil, "1650", "500 BC", "9999", "c. 1642"]
        let records: [String?] = [nil, "r", "r\u{0}", "rr"]
        var keys: [CatalogOrder.Key] = []
        for id in ids {
            for date in dates {
                for record in records {
                    var object = Seeds.object(id, "M")
                    object.date = date
                    object.recordID = record
                    keys.append(CatalogOrder.Key(object))
                }
            }
        }
        // The store's order: `order_key`, then `record_key` (the record identifier's bytes).
        let stored = keys.map { ($0.bytes, Array($0.record.utf8)) }
        func precedes(_ left: ([UInt8], [UInt8]), _ right: ([UInt8], [UInt8])) -> Bool {
            left.0 != right.0 ? left.0.lexicographicallyPrecedes(right.0) : left.1.lexicographicallyPrecedes(right.1)
        }
        var disagreements = 0
        for left in keys.indices {
            for right in keys.indices {
                if (keys[left] < keys[right]) != precedes(stored[left], stored[right]) { disagreements += 1 }
                if (keys[left] == keys[right]) != (stored[left] == stored[right]) { disagreements += 1 }
            }
        }
        #expect(disagreements == 0)
    }

    /// Whether the store reads `left` before `right`: by `order_key`, then `record_key`, each compared as SQLite
    /// compares BLOBs.
    private static func storeOrder(_ left: ArtObject, _ right: ArtObject) -> Bool {
        let (leftKey, rightKey) = (CatalogOrder.Key(left), CatalogOrder.Key(right))
        if leftKey.bytes != rightKey.bytes { return leftKey.bytes.lexicographicallyPrecedes(rightKey.bytes) }
        return left.recordKey.text.utf8.lexicographicallyPrecedes(right.recordKey.text.utf8)
    }
}

/// `--open-access-only` (issue 36, item 6): the catalog shows the objects whose rights open their image, the summary
/// counts the rest, and a collection or source that states no rights is refused with a reason.
@Suite struct OpenAccessTests {
    private static func object(_ id: String, _ maker: String?, rights: String?) -> RecordOutcome {
        var object = Seeds.object(id, maker)
        object.details.rights = rights.flatMap(Rights.init(statement:))
        return .object(object)
    }

    private static let pages: [[RecordOutcome]] = [
        [
            object("A-1", "Jan Steen", rights: "http://creativecommons.org/publicdomain/mark/1.0/"),
            object("A-2", "Jan Steen", rights: "http://rightsstatements.org/vocab/InC/1.0/"),
            object("B-1", "Frans Hals", rights: nil),
        ],
        [
            object("C-1", nil, rights: "https://creativecommons.org/licenses/by/4.0/"),
            object("B-2", "Frans Hals", rights: "Copyright the estate"),
        ],
    ]

    @Test func `only open objects are shown, empty sections go, and the rest are counted`() async throws {
        let interactor = ExportInteractor(
            source: StubSource(pages: Self.pages), transport: StubTransport(), presenter: ExportPresentationLogicSpy())
        let all = try await interactor.harvest(options: HarvestOptions())
        let open = try await interactor.harvest(options: HarvestOptions(), showing: .openAccess)
        #expect(all.statistics.objects == 5 && all.statistics.leftOut == 0)
        #expect(open.sections.map(\.maker) == ["Jan Steen", nil])
        #expect(open.sections.map { $0.objects.map(\.id) } == [["A-1"], ["C-1"]])
        #expect(open.statistics.objects == 2 && open.statistics.leftOut == 3 && open.statistics.sections == 2)
        let summary = ExportPresenter(
            thumbnailWidth: 400, catalogDisplay: CatalogDisplayLogicSpy(), progressDisplay: CatalogDisplayLogicSpy()
        ).makeSummary(source: Seeds.descriptor, statistics: open.statistics)
        #expect(
            summary.summary.contains("2 objects, 2 sections")
                && summary.summary.contains("3 left out (not open access)"))
    }

    @Test func `a collection none of whose objects states its rights is refused, naming the flag`() async throws {
        let pages: [[RecordOutcome]] = [[Self.object("A-1", "Jan Steen", rights: nil)]]
        let spy = ExportPresentationLogicSpy()
        let interactor = ExportInteractor(source: StubSource(pages: pages), transport: StubTransport(), presenter: spy)
        let error = await #expect(throws: ExportError.self) {
            try await interactor.export(request: ExportRequest(selection: .openAccess))
        }
        #expect(
            error?.description
                == "test: --open-access-only: none of the 1 objects harvested states its rights, so none can be shown "
                + "as open for reuse; export without it")
        #expect(spy.starts.isEmpty)
    }

    @Test func `a source that states no rights is refused before any request`() async throws {
        var source = StubSource(pages: Self.pages)
        source.statesRights = false
        // A request would meet a broken page, and fail otherwise.
        let interactor = ExportInteractor(
            source: source, transport: StubTransport(broken: [1, 2]), presenter: ExportPresentationLogicSpy())
        let error = await #expect(throws: ExportError.self) {
            try await interactor.export(request: ExportRequest(selection: .openAccess))
        }
        #expect(error?.description.contains("this source states no rights") == true)
    }
}

/// A–Z by sort name (issue 36, item 7): sections go and letter by their makers' sort name where the source gives
/// one; the heading stays the display name.
@Suite struct SortNameTests {
    private static func object(_ id: String, _ maker: String, sortName: String?) -> RecordOutcome {
        var object = Seeds.object(id, maker)
        object.details.makers = [.init(name: maker, sortName: sortName)]
        return .object(object)
    }

    @Test func `sections file under their sort names, headings keep the display name`() async throws {
        let pages: [[RecordOutcome]] = [
            [
                Self.object("V-1", "Johannes Vermeer", sortName: "Vermeer, Johannes"),
                Self.object("R-1", "Rembrandt van Rijn", sortName: "Rijn, Rembrandt van"),
                Self.object("R-2", "Rembrandt van Rijn", sortName: nil),
            ],
            [
                Self.object("H-1", "Frans Hals", sortName: "Hals, Frans"),
                Self.object("A-1", "Aelbert Cuyp", sortName: nil),
                Self.object("G-1", "Vincent van Gogh", sortName: "Gogh, Vincent van"),
            ],
        ]
        let spy = ExportPresentationLogicSpy()
        let interactor = ExportInteractor(source: StubSource(pages: pages), transport: StubTransport(), presenter: spy)
        try await interactor.export(request: ExportRequest())
        let start = try #require(spy.starts.first)
        #expect(
            start.sections.map(\.maker) == [
                "Aelbert Cuyp", "Vincent van Gogh", "Frans Hals", "Rembrandt van Rijn", "Johannes Vermeer",
            ])
        #expect(start.sortNames["Rembrandt van Rijn"] == "Rijn, Rembrandt van")
        let outline = ExportPresenter(
            thumbnailWidth: 400, catalogDisplay: CatalogDisplayLogicSpy(), progressDisplay: CatalogDisplayLogicSpy()
        ).makeOutline(start)
        #expect(outline.sections.map(\.letter) == ["A", "G", "H", "R", "V"])
        #expect(outline.sections.map(\.name) == start.sections.map { $0.maker ?? "" })
    }
}
