import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays

/// The gallery as a site: every page reachable from the index, pages bounded in size, safe file names,
/// detail pages with prev/next, and a search index in which every object can be found.
@Suite struct GallerySiteTests {
    /// A catalog big enough to page: one maker with 1,050 objects (6 pages of 200), 40 more with 50 each,
    /// ids that are hostile as file names, and objects without images.
    private static func largeResponse() -> HarvestedCollection {
        var sections: [ArtistSection] = []
        let hostileIDs = [
            "../../etc/passwd", "a/b\\c", "SK-1", "sk 1", "SK_1", String(repeating: "x", count: 300), "葛飾", ".", "",
        ]
        var big: [ArtObject] = []
        for number in 0..<1_050 {
            let id =
                number < hostileIDs.count
                ? hostileIDs[number] + (hostileIDs[number].isEmpty ? "" : "") : "RP-P-\(number)"
            big.append(
                ArtObject(
                    id: id.isEmpty ? "EMPTY" : id, title: "Portret van een man \(number)", maker: "Rembrandt van Rijn",
                    date: "1650",
                    image: number.isMultiple(of: 7)
                        ? nil
                        : ImageReference(
                            url: "https://iiif.micr.io/R\(number)/full/max/0/default.jpg",
                            sizing: .iiif(service: "https://iiif.micr.io/R\(number)", cachedWidths: []))))
        }
        sections.append(ArtistSection(maker: "Rembrandt van Rijn", objects: big))
        for maker in 0..<40 {
            let name =
                maker.isMultiple(of: 5)
                ? "Émile Maker \(maker)" : "\(["Zeeman", "Bol", "Hals", "Steen"][maker % 4]) \(maker)"
            sections.append(
                ArtistSection(
                    maker: name,
                    objects: (0..<50).map {
                        ArtObject(id: "M\(maker)-\($0)", title: "Landschap met molen \($0)", maker: name, date: nil)
                    }))
        }
        sections.append(
            ArtistSection(maker: nil, objects: [ArtObject(id: "BK-1", title: "Kabinet", maker: nil, date: nil)]))
        return Seeds.response(sections)
    }

    /// The gallery of a response, its view model and the gallery's file names.
    private static func render(_ response: HarvestedCollection) async throws -> (
        TemporaryFolder, CatalogViewModel, ArtistPageNames
    ) {
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(response: response)
        let folder = try TemporaryFolder()
        let writer = CatalogWriter(outputDirectory: folder.path, formats: [.html], templates: try TemplateLibrary())
        _ = try await writer.displayCatalog(viewModel: model)
        return (folder, model, ArtistPageNames(model))
    }

    @Test func `every object page is reachable from the index in three clicks, and no page is large`() async throws {
        let (folder, model, _) = try await Self.render(Self.largeResponse())
        let crawl = try await SiteCrawl(root: folder.url)
        let objectPages = Set(model.objectPages.flatMap { $0.map { "objects/\($0)" } })
        #expect(objectPages.count == model.objectCount)
        for page in objectPages {
            let depth = try #require(crawl.depth[page], "\(page) is not reachable")
            #expect(depth <= 3, "\(page) is \(depth) clicks away")
        }
        #expect(crawl.brokenLinks.isEmpty, "\(crawl.brokenLinks.prefix(5))")
        for (page, size) in crawl.sizes { #expect(size < 1_000_000, "\(page) is \(size) bytes") }
        // Above the inline limit, the index lists makers and pages instead of cards.
        let index = try folder.read("index.html")
        #expect(!index.contains("data-object-id"))
        #expect(index.contains("href=\"artists/rembrandt-van-rijn--6.html\""))
    }

    @Test func `sections are paged by 200 cards, each object on exactly one page of its maker`() async throws {
        let (folder, model, names) = try await Self.render(Self.largeResponse())
        let rembrandt = try #require(model.sections.firstIndex { $0.name == "Rembrandt van Rijn" })
        #expect(
            names.pages[rembrandt].map(\.fileName) == ["rembrandt-van-rijn.html"]
                + (2...6).map { "rembrandt-van-rijn--\($0).html" })
        var seen: [String: String] = [:]
        for (index, section) in model.sections.enumerated() {
            for page in names.pages[index] {
                let html = try folder.read("artists/\(page.fileName)")
                #expect(html.components(separatedBy: "data-artist=").count == 2)
                let cards = html.components(separatedBy: "data-object-id=\"").dropFirst().map {
                    String($0.prefix { $0 != "\"" })
                }
                #expect(cards.count <= 200 && cards.count == page.range.count)
                for id in cards {
                    #expect(seen[id] == nil, "\(id) twice")
                    seen[id] = section.name
                }
            }
        }
        #expect(seen.count == model.objectCount)
        let second = try folder.read("artists/rembrandt-van-rijn--2.html")
        #expect(second.contains(#"<a rel="prev" href="rembrandt-van-rijn.html">"#))
        #expect(second.contains(#"<a rel="next" href="rembrandt-van-rijn--3.html">"#))
        #expect(second.contains(#"<span aria-current="page">2</span>"#))
    }

    @Test func `file names are safe, bounded and unique whatever the ids`() async throws {
        let (folder, model, gallery) = try await Self.render(Self.largeResponse())
        let names = model.objectPages.flatMap { $0 }
        #expect(Set(names).count == names.count)
        for name in names + gallery.pages.flatMap({ $0.map(\.fileName) }) {
            #expect(name.count <= 80, "\(name)")
            #expect(
                name.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." },
                "\(name)")
            #expect(!name.hasPrefix(".") && !name.contains(".."), "\(name)")
        }
        let files = try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("objects").path)
        #expect(files.count == model.objectCount)
    }

    @Test func `a detail page has the large IIIF image, the museum link and prev-next within its section`() async throws
    {
        let (folder, model, _) = try await Self.render(Self.largeResponse())
        let section = try #require(model.sections.firstIndex { $0.name == "Rembrandt van Rijn" })
        let pages = model.objectPages[section]
        let html = try folder.read("objects/\(pages[1])")
        #expect(html.contains(#"<img src="https://iiif.micr.io/R1/full/843,/0/default.jpg""#))
        #expect(html.contains(#"width="843""#))
        #expect(html.contains(#"<a rel="prev" href="\#(pages[0])">"#))
        #expect(html.contains(#"<a rel="next" href="\#(pages[2])">"#))
        #expect(html.contains(#"href="../artists/rembrandt-van-rijn.html""#))
        let first = try folder.read("objects/\(pages[0])")
        #expect(!first.contains(#"rel="prev""#) && first.contains("No image"))
        // Cards offer a 2× rendition where the host can size images.
        let artist = try folder.read("artists/rembrandt-van-rijn.html")
        #expect(
            artist.contains(
                #"srcset="https://iiif.micr.io/R1/full/400,/0/default.jpg 1x, https://iiif.micr.io/R1/full/800,/0/default.jpg 2x""#
            ))
    }

    @Test func `many makers get a page per letter and stay three clicks away`() async throws {
        let sections = (0..<1_300).map { number in
            let name = "\(["Adriaen", "Bartholomeus", "Cornelis"][number % 3]) Maker \(number)"
            return ArtistSection(
                maker: name, objects: [ArtObject(id: "L-\(number)", title: "Work \(number)", maker: name)])
        }
        let (folder, model, _) = try await Self.render(Seeds.response(sections))
        let crawl = try await SiteCrawl(root: folder.url)
        for page in model.objectPages.flatMap({ $0 }) {
            #expect((crawl.depth["objects/\(page)"] ?? 99) <= 3, "\(page)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("letters/letter-a.html").path))
        #expect(try folder.read("index.html").contains(#"href="letters/letter-b.html""#))
    }

    @Test func `search finds every object by a word of its title through the shard the page would load`() async throws {
        let response = Self.largeResponse()
        let (folder, model, _) = try await Self.render(response)
        let manifest = try folder.read("search/manifest.js")
        let counts = try JSONDecoder().decode(
            [String: Int].self, from: Data(manifest.dropFirst("Vitrine.manifest(".count).dropLast(3).utf8))
        let keys = Array(counts.keys)
        for (sectionIndex, section) in model.sections.enumerated() {
            for (index, object) in section.objects.prefix(60).enumerated() {
                let word = try #require(SearchIndex.words(object.title).first { $0.count >= 2 })
                let shard = try #require(Self.shard(for: word, keys: keys), "no shard for \(word)")
                let script = try folder.read("search/\(SearchIndex.fileStem(shard)).js")
                let page = model.objectPages[sectionIndex][index]
                #expect(script.contains("\"\(page)\""), "\(object.id) not under \(shard)")
            }
        }
        // No shard is huge: common words ("portret", "van") are split further.
        for key in keys {
            let size = try folder.read("search/\(SearchIndex.fileStem(key)).js").utf8.count
            #expect(size < 400_000, "\(key): \(size) bytes")
        }
    }

    /// Titles as real collections spell them: composed and decomposed accents, a numero sign, fractions, Greek
    /// with a final sigma, Japanese, full-width letters, ligatures, an accent straight after a separator.
    @Test(arguments: [
        "Study № 8 (revision 1)", "Portret van Émile Zola", "Portret van E\u{301}mile Zola", "½ ounce, 1¾ inch",
        "ΟΔΟΣ ΠΡΟΣ ΤΗΝ ΑΘΗΝΑ", "葛飾北斎 富嶽三十六景", "ＡＢＣ全角 ｄｅｆ", "ﬁnal ﬂower Æsop Straße", "a \u{301}b-c\u{308}d",
        "Café-au-lait—Ünter den Linden/Øresund", "", "Илья Репин, 1844", "ｶﾞﾗｽ-ガラス", "x\u{3099}y", "हिन्दी-ok",
    ])
    func `words read byte by byte are the words of folding the whole text`(_ title: String) {
        #expect(SearchIndex.words(title) == SearchIndex.foldedWords(title))
    }

    /// Issue 37, item 5: words are letters, digits and marks of any script; Chinese and Japanese, written without
    /// spaces, are cut into overlapping pairs; case, accents, width and kana voicing are folded as `gallery.js`
    /// folds them.
    @Test(
        arguments: [
            ("葛飾北斎 富嶽三十六景", ["葛飾", "飾北", "北斎", "富嶽", "嶽三", "三十", "十六", "六景"]),
            ("北", ["北"]), ("Илья Репин", ["илья", "репин"]), ("ΟΔΟΣ Γύζης", ["οδοσ", "γυζησ"]),
            ("ガラス", ["カラ", "ラス"]), ("ｶﾞﾗｽ", ["カラ", "ラス"]), ("ＡＢＣ 123", ["abc", "123"]),
            ("Søren Kierkegaard", ["soren", "kierkegaard"]), ("SK-C-5 (1642)", ["sk", "c", "5", "1642"]),
            ("広重の浮世絵 Hiroshige", ["広重", "重の", "の浮", "浮世", "世絵", "hiroshige"]),
            ("हिन्दी", ["हिन्दी"]), ("김홍도", ["김홍도".decomposedStringWithCompatibilityMapping]),
        ] as [(String, [String])])
    func `words are found in every script`(text: String, words: [String]) {
        #expect(SearchIndex.words(text) == words)
    }

    @Test(arguments: [
        ("ab", "ab"), ("ab$", "ab-end"), ("北", "_5317"), ("αβ$", "_3b1_3b2-end"), ("a北", "_61_5317"),
    ])
    func `a shard's file name is ASCII whatever its key`(key: String, stem: String) {
        #expect(SearchIndex.fileStem(key) == stem)
    }

    @Test func `an object is found by its number, whole or by its words, and by its year`() async throws {
        let objects = [
            ArtObject(id: "SK-A-1505", title: "Portret", maker: "Rembrandt van Rijn", date: "c. 1642"),
            ArtObject(id: "SK-C-5", title: "De Nachtwacht", maker: "Rembrandt van Rijn", date: "1642"),
            ArtObject(id: "RP-P-1", title: "北斎漫画", maker: "Rembrandt van Rijn", date: "1814"),
        ]
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(response: Seeds.response([ArtistSection(maker: "Rembrandt van Rijn", objects: objects)]))
        let index = try await SearchIndex(model)
        func found(_ word: String) -> Set<String> { Self.found(word, in: index, model) }
        #expect(found("ska1505") == ["SK-A-1505"])
        #expect(found("1505") == ["SK-A-1505"])
        #expect(found("skc5") == ["SK-C-5"])
        #expect(found("1642") == ["SK-A-1505", "SK-C-5"])
        #expect(found("北斎") == ["RP-P-1"] && found("漫画") == ["RP-P-1"])
        #expect(index.shards.keys.contains("北"), "a key of one character for Chinese and Japanese")
        let shard = try await #require(index.shardScripts().first { $0.0 == "_5317" }?.1)
        #expect(shard.contains(#"["北斎漫画","Rembrandt van Rijn","rp-p-1.html","","RP-P-1","1814"]"#))
    }

    /// Words are posted by their first `longestKey` letters, past which shards never split.
    @Test func `long numbers sharing their beginnings are found whole and by their words`() async throws {
        let objects = (0..<3_000).map { number in
            ArtObject(
                id: "RP-P-1906-\(2_000 + number)", title: "Kupferstichkabinett \(number % 7)", maker: "Anonymous",
                date: "\(1_600 + number % 300)")
        }
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(response: Seeds.response([ArtistSection(maker: "Anonymous", objects: objects)]))
        let index = try await SearchIndex(model)
        #expect(index.shards.keys.contains { $0.count == SearchIndex.longestKey }, "splits as deep as keys go")
        for number in stride(from: 2_000, to: 5_000, by: 97) {
            #expect(Self.found("rpp1906\(number)", in: index, model) == ["RP-P-1906-\(number)"])
            #expect(Self.found("\(number)", in: index, model).contains("RP-P-1906-\(number)"))
        }
        #expect(Self.found("kupferstichkabinett", in: index, model).count == 3_000)
    }

    /// What `gallery.js` does: the shards whose key starts the word, then the entries whose words hold it.
    private static func found(_ word: String, in index: SearchIndex, _ model: CatalogViewModel) -> Set<String> {
        let numbers = index.shards.filter {
            $0.key.hasSuffix("$") ? $0.key.dropLast() == word : word.hasPrefix($0.key)
        }.flatMap(\.value)
        return Set(
            numbers.map { model.sections[0].objects[Int($0)] }.filter { object in
                let words = SearchIndex.words(
                    [object.title, object.maker, object.date, object.id].joined(separator: " "))
                return (words.joined(separator: " ") + " " + SearchIndex.words(object.id).joined()).contains(word)
            }.map(\.id))
    }

    @Test func `a word too common to split keeps a bounded shard and its full count`() async throws {
        let objects = (0..<2_500).map {
            ArtObject(id: "S-\($0)", title: "Study \($0)", maker: "Anonymous Pupil")
        }
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(response: Seeds.response([ArtistSection(maker: "Anonymous Pupil", objects: objects)]))
        let index = try await SearchIndex(model)
        #expect(index.shards["study$"]?.count == 2_500)
        #expect(index.shards["st"] == nil && index.shards["stu"] == nil)
        #expect(index.manifestScript().contains(#""study$":2500"#))
        let study = try await index.shardScripts().first { $0.0 == "study-end" }?.1 ?? ""
        #expect(study.components(separatedBy: "S-").count - 1 <= SearchIndex.shardLimit)
        #expect(study.components(separatedBy: #"["Study"#).count - 1 == SearchIndex.shardLimit)
    }

    @Test func `an object is listed once under a word however often its title and maker say it`() async throws {
        let long = (1...30).map { $0 % 3 == 0 ? "study" : "sketch\($0 % 4)" }.joined(separator: " ")
        let objects = [
            ArtObject(id: "S-1", title: "Study of a study, STUDY", maker: "Study Group"),
            ArtObject(id: "S-2", title: long, maker: "Study Group"),
            ArtObject(id: "S-3", title: "Landscape", maker: "Study Group"),
        ]
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(response: Seeds.response([ArtistSection(maker: "Study Group", objects: objects)]))
        let index = try await SearchIndex(model)
        #expect(index.shards["st"] == [0, 1, 2], "every object has the maker's word, each once")
        #expect(index.shards["sk"] == [1], "a title of 30 words")
        for (key, numbers) in index.shards {
            #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(key): \(numbers)")
        }
    }

    /// The shard `gallery.js` picks for a query word.
    private static func shard(for word: String, keys: [String]) -> String? {
        var best: String?
        for key in keys {
            let bare = key.hasSuffix("$") ? String(key.dropLast()) : key
            let matches = key.hasSuffix("$") ? bare == word : word.hasPrefix(bare)
            if matches, bare.count > (best.map { $0.hasSuffix("$") ? $0.count - 1 : $0.count } ?? -1) { best = key }
        }
        return best
    }
}

/// Follows the relative links of a written site from `index.html`, breadth first.
struct SiteCrawl {
    /// Page path (relative to the root) → clicks from the index.
    var depth: [String: Int] = [:]
    var sizes: [String: Int] = [:]
    var brokenLinks: [String] = []

    init(root: URL) async throws {
        depth["index.html"] = 0
        var queue = ["index.html"]
        var next = 0
        while next < queue.count {
            let page = queue[next]
            next += 1
            let data = try Data(contentsOf: root.appendingPathComponent(page))
            sizes[page] = data.count
            let html = String(decoding: data, as: UTF8.self)
            let folder = page.split(separator: "/").dropLast().map(String.init)
            for chunk in html.components(separatedBy: "href=\"").dropFirst() {
                var link = String(chunk.prefix { $0 != "\"" })
                if link.hasPrefix("http") || link.hasPrefix("#") { continue }
                if let hash = link.firstIndex(of: "#") { link = String(link[..<hash]) }
                guard link.hasSuffix(".html") else { continue }
                let target = Self.resolve(link, in: folder)
                guard depth[target] == nil else { continue }
                guard FileManager.default.fileExists(atPath: root.appendingPathComponent(target).path) else {
                    brokenLinks.append("\(page) → \(link)")
                    continue
                }
                depth[target] = (depth[page] ?? 0) + 1
                queue.append(target)
            }
        }
    }

    /// `../artists/a.html` seen from `objects/` → `artists/a.html`, by path arithmetic alone.
    private static func resolve(_ link: String, in folder: [String]) -> String {
        var parts = folder
        for part in link.split(separator: "/") {
            if part == ".." {
                _ = parts.popLast()
            } else if part != "." {
                parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}

@Suite struct LargeMarkdownCatalogTests {
    @Test func `past the threshold catalog.md lists letters and each letter has a file with every object once`()
        async throws
    {
        let makers = ["Avercamp", "Bol", "Cuyp", "Émile Bernard", "葛飾北斎"]
        let sections =
            makers.map { maker in
                ArtistSection(
                    maker: maker,
                    objects: (0..<1_100).map {
                        ArtObject(id: "\(maker.prefix(2))-\($0)", title: "Work \($0)", maker: maker)
                    })
            } + [ArtistSection(maker: nil, objects: [ArtObject(id: "NONE-1", title: "Kabinet")])]
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(response: Seeds.response(sections))
        let folder = try TemporaryFolder()
        _ = try await CatalogWriter(
            outputDirectory: folder.path, formats: [.markdown], templates: try TemplateLibrary()
        )
        .displayCatalog(viewModel: model)
        let contents = try folder.read("catalog.md")
        for file in ["a.md", "b.md", "c.md", "e.md", "other.md", "unknown.md"] {
            #expect(contents.contains("](catalog/\(file))"), "\(file)")
        }
        var headingOf: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("catalog").path) where !file.hasPrefix(".")
        {
            var heading = ""
            for line in try folder.read("catalog/\(file)").split(separator: "\n") {
                if line.hasPrefix("## ") { heading = String(line.dropFirst(3)) }
                guard line.hasPrefix("- "), heading != "Contents", let dot = line.range(of: " · ", options: .backwards)
                else { continue }
                let id = String(line[dot.upperBound...]).replacingOccurrences(of: "\\", with: "")
                #expect(headingOf[id] == nil, "\(id) twice")
                headingOf[id] = heading
            }
        }
        #expect(headingOf.count == model.objectCount)
        #expect(headingOf["Cu-7"] == "Cuyp" && headingOf["NONE-1"] == "Unknown artist")
    }
}

extension GallerySiteTests {
    @Test(arguments: [
        "plain", "quote \" and \\ backslash", "</script><b>", "slash/and/more", "tab\tnew\nline\r", "\u{1}\u{1F}\u{7F}",
        "Café 日本 देव", "",
    ])
    func `search entries are the JSON that JSONEncoder writes, with < escaped`(text: String) throws {
        var bytes: [UInt8] = []
        JSONText.append(text, to: &bytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(text), as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c")
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
}
