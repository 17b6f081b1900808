import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineOutput

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a site gives the open web with `--site-url`: a canonical link and share previews on every page, a sitemap
/// that lists every page once, `robots.txt`, schema.org records on object pages, and the data page.
@Suite struct OpenWebTests {
    static let siteURL = "https://museum.example/collection/"

    private func viewModel(
        _ response: HarvestedCollection = Seeds.catalogResponse, url: String? = Self.siteURL, logo: String? = nil
    ) async throws -> CatalogViewModel {
        let spy = CatalogDisplayLogicSpy()
        return try await ExportPresenter(
            thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy,
            site: SiteIdentity(title: "Museum <Example> & Co", url: url, logo: logo)
        ).makeViewModel(response: response)
    }

    private func render(_ model: CatalogViewModel, formats: [CatalogFormat] = CatalogFormat.allCases) async throws
        -> TemporaryFolder
    {
        let folder = try TemporaryFolder()
        let writer = CatalogWriter(outputDirectory: folder.path, formats: formats, templates: try TemplateLibrary())
        _ = try await writer.displayCatalog(viewModel: model)
        return folder
    }

    /// Every `.html` page of the site, by its path from the top.
    private func pages(in folder: TemporaryFolder) throws -> [String: String] {
        try TemporaryFolder.files(in: folder.url).filter { $0.key.hasSuffix(".html") }.reduce(into: [:]) {
            $0[String($1.key.dropFirst())] = String(decoding: $1.value, as: UTF8.self)
        }
    }

    /// The `<loc>` values of a sitemap or a sitemap index, read by an XML parser.
    static func locations(_ xml: Data) throws -> [String] {
        final class Locations: NSObject, XMLParserDelegate {
            var found: [String] = []
            var text: String?
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]
            ) {
                if name == "loc" { text = "" }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?)
            {
                if name == "loc", let text { found.append(text) }
                text = nil
            }
        }
        let parser = XMLParser(data: xml)
        let delegate = Locations()
        parser.delegate = delegate
        #expect(parser.parse(), "the sitemap is well-formed XML")
        return delegate.found
    }

    static func attribute(_ html: String, _ pattern: String) -> String? {
        guard let range = html.range(of: pattern) else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    @Test func `the sitemap lists every page once, and each page's canonical link is its address there`() async throws {
        let folder = try await render(
            try viewModel(
                Seeds.response(
                    Seeds.catalogResponse.sections + [
                        ArtistSection(maker: "Jan <b>Steen</b>", objects: Array(Seeds.hostile.prefix(2)))
                    ])))
        let pages = try pages(in: folder)
        let listed = try Self.locations(Data(contentsOf: folder.url.appendingPathComponent("sitemap.xml")))
        #expect(listed.count == Set(listed).count, "no address twice")
        let expected = pages.keys.map { $0 == "index.html" ? Self.siteURL : Self.siteURL + $0 }
        #expect(Set(listed) == Set(expected))
        #expect(pages.keys.contains("data.html") && pages.count > 8)
        for (path, html) in pages {
            let canonical = Self.attribute(html, #"<link rel="canonical" href=""#)
            #expect(canonical == (path == "index.html" ? Self.siteURL : Self.siteURL + path), "\(path)")
            #expect(Self.attribute(html, #"<meta name="description" content=""#)?.isEmpty == false, "\(path)")
            #expect(html.contains(#"<meta property="og:title""#), "\(path)")
            if let image = Self.attribute(html, #"<meta property="og:image" content=""#) {
                #expect(image.hasPrefix("https://") || image.hasPrefix("http://"), "\(path): \(image)")
            }
        }
        #expect(Self.attribute(pages["index.html"] ?? "", #"<meta property="og:image" content=""#) != nil)
        #expect(
            !FileManager.default.fileExists(atPath: folder.path + "/robots.txt"),
            "crawlers read robots.txt only at the top of a host")
    }

    @Test func `a site at the top of its host gets a robots.txt naming its sitemap`() async throws {
        let folder = try await render(try viewModel(url: "https://collection.museum.example"), formats: [.html])
        let robots = try folder.read("robots.txt")
        #expect(robots == "User-agent: *\nAllow: /\n\nSitemap: https://collection.museum.example/sitemap.xml\n")
    }

    @Test func `each object page holds a schema.org VisualArtwork, valid JSON however hostile its text`() async throws {
        let folder = try await render(
            try viewModel(
                Seeds.response(
                    Seeds.catalogResponse.sections + [
                        ArtistSection(maker: "Jan <b>Steen</b>", objects: Array(Seeds.hostile.prefix(2)))
                    ])))
        let objects = try pages(in: folder).filter { $0.key.hasPrefix("objects/") }
        #expect(objects.count == 7)
        for (path, html) in objects {
            let start = try #require(html.range(of: #"<script type="application/ld+json">"#))
            let end = try #require(html[start.upperBound...].range(of: "</script>"))
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8))
                    as? [String: Any])
            #expect(json["@type"] as? String == "VisualArtwork", "\(path)")
            #expect(json["@context"] as? String == "https://schema.org")
            #expect(json["url"] as? String == Self.siteURL + path)
            #expect((json["name"] as? String)?.isEmpty == false)
            if let image = json["image"] as? String { #expect(image.hasPrefix("https://"), "\(path): \(image)") }
            if path == "objects/sk-c-5.html" {
                #expect((json["creator"] as? [String: Any])?["name"] as? String == "Rembrandt van Rijn")
                #expect(json["license"] as? String == "http://creativecommons.org/publicdomain/mark/1.0/")
                #expect(json["artMedium"] as? String == "canvas, oil paint")
            }
        }
        let hostile = try #require(objects["objects/x-1.html"])
        #expect(!hostile.contains("<script>alert"), "a title cannot end the JSON's script element")
    }

    @Test func `without the site's address there is no sitemap and no canonical link, but a description`() async throws
    {
        let folder = try await render(try viewModel(url: nil))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/sitemap.xml"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/robots.txt"))
        for (path, html) in try pages(in: folder) {
            #expect(!html.contains("rel=\"canonical\"") && !html.contains("og:"), "\(path)")
            #expect(html.contains(#"<meta name="description""#) && html.contains("assets/favicon.svg"), "\(path)")
        }
    }

    @Test(arguments: [1, 3, 4, 7])
    func `past the limit of a file, the sitemap is an index of files that together list every page`(perFile: Int)
        async throws
    {
        let folder = try TemporaryFolder()
        let output = try await OutputFolder.opened(path: folder.path)
        let paths = ["", "a.html", "objects/b&c.html", "objects/d.html", "e.html", "f.html", "g.html"]
        var map = SiteMap(siteURL: Self.siteURL, perFile: perFile)
        for path in paths { try map.add(path, in: output) }
        try map.finish(in: output)
        _ = try await output.commit(displayRoot: folder.path)
        let top = try Self.locations(Data(contentsOf: folder.url.appendingPathComponent("sitemap.xml")))
        var listed: [String] = []
        if perFile >= paths.count {
            listed = top
        } else {
            #expect(top.count == (paths.count + perFile - 1) / perFile)
            for file in top {
                let name = try #require(file.split(separator: "/").last)
                listed += try Self.locations(
                    Data(contentsOf: folder.url.appendingPathComponent("sitemaps/\(name)")))
            }
        }
        #expect(listed == paths.map { Self.siteURL + $0 })
    }

    @Test func `the data page offers each data file with its size, and counts the objects by rights`() async throws {
        let folder = try await render(try viewModel())
        let data = try folder.read("data.html")
        for file in ["collection.csv", "collection.jsonl", "catalog.md"] {
            let size = try #require(
                try FileManager.default.attributesOfItem(atPath: folder.path + "/" + file)[.size] as? Int)
            #expect(data.contains("<a href=\"\(file)\" download>\(file)</a>"))
            #expect(data.contains("<td>\(DataFile.size(size))</td>"), "\(file): \(size) bytes")
        }
        #expect(data.contains("Public Domain Mark</a></td><td>1 object</td>"))
        #expect(data.contains("Not stated by the source</td><td>4 objects</td>"))
        let htmlOnly = try await render(try viewModel(), formats: [.html]).read("data.html")
        #expect(htmlOnly.contains("This export wrote no data files"))
    }

    @Test func `a logo is copied into the site and shown in every masthead`() async throws {
        let logoFolder = try TemporaryFolder()
        let logo = logoFolder.url.appendingPathComponent("Museum Logo.PNG")
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: logo)
        let folder = try await render(try viewModel(logo: logo.path))
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("assets/logo.png")) == Data(contentsOf: logo))
        #expect(
            try folder.read("artists/rembrandt-van-rijn.html").contains(#"<img class="logo" src="../assets/logo.png""#))
        #expect(try folder.read("index.html").contains(#"<img class="logo" src="assets/logo.png""#))
        #expect(
            Self.attribute(try folder.read("index.html"), #"<meta property="og:image" content=""#)
                == Self.siteURL + "assets/logo.png")
    }

    /// Found by a hostile check: "in the The Metropolitan Museum of Art collection".
    @Test func `a site title with its own article is not given another`() async throws {
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(
            thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy,
            site: SiteIdentity(title: "The Metropolitan Museum of Art collection", url: Self.siteURL)
        ).makeViewModel(response: Seeds.catalogResponse)
        let folder = try await render(model, formats: [.html])
        let pages = try pages(in: folder)
        #expect(pages.values.contains { $0.contains("in The Metropolitan Museum of Art collection") })
        for (path, html) in pages {
            #expect(!html.contains("the The ") && !html.contains("The The "), "\(path)")
        }
    }

    @Test func `an SVG logo is shown but not offered as the share picture, which previews cannot show`() async throws {
        let logoFolder = try TemporaryFolder()
        let logo = logoFolder.url.appendingPathComponent("logo.svg")
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>"#.utf8).write(to: logo)
        let folder = try await render(try viewModel(logo: logo.path), formats: [.html])
        #expect(try folder.read("index.html").contains(#"<img class="logo" src="assets/logo.svg""#))
        for (path, html) in try pages(in: folder) {
            #expect(
                !(Self.attribute(html, #"<meta property="og:image" content=""#) ?? "").hasSuffix(".svg"), "\(path)")
        }
    }

    @Test(
        arguments: [
            (#"<svg><script>alert(1)</script></svg>"#, "<script"), (#"<svg onload="alert(1)"/>"#, "onload"),
            (#"<svg><a href="JavaScript:alert(1)"><text>x</text></a></svg>"#, "javascript:"),
            (#"<svg><foreignObject><iframe src="x"/></foreignObject></svg>"#, "<iframe"),
            (#"<svg xmlns="http://www.w3.org/2000/svg" font-family="Monotype"><text>one = 1</text></svg>"#, nil),
            (#"<!DOCTYPE svg [<!ENTITY ns_ai "http://ns.adobe.com/AdobeIllustrator/10.0/">]><svg/>"#, nil),
            // Found by a second check: a prefix, a character reference, a style sheet, an entity.
            (#"<svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg>"#, "<script"),
            (#"<svg><a href="&#106;avascript:alert(1)"><text>x</text></a></svg>"#, "javascript:"),
            (#"<svg><a href="&#x6A;avascript:alert(1)"/></svg>"#, "javascript:"),
            (#"<?xml-stylesheet type="text/xsl" href="x.xsl"?><svg/>"#, "<?xml-stylesheet"),
            (#"<svg><foreignObject><h:object data="x"/></foreignObject></svg>"#, "<object"),
            (#"<!DOCTYPE svg [<!ENTITY x "&#60;script&#62;alert(1)&#60;/script&#62;">]><svg>&x;</svg>"#, "<script"),
        ] as [(String, String?)])
    func `an SVG logo with anything that runs is refused, naming it`(svg: String, found: String?) {
        #expect(SiteIdentity.activeContent(inSVG: svg) == found)
    }

    @Test(
        arguments: [
            ("https://museum.example/collection", "https://museum.example/collection/"),
            (" http://museum.example/ ", "http://museum.example/"),
            ("museum.example", nil), ("ftp://museum.example/", nil), ("https://museum.example/?page=1", nil),
            ("javascript:alert(1)", nil), ("https:///x", nil),
            ("HTTPS://Museum.Example:8443/Collectie", "https://museum.example:8443/Collectie/"),
            ("https://[2001:db8::1]/c", "https://[2001:db8::1]/c/"),
            ("https://museum.example/v1.2/", "https://museum.example/v1.2/"),
            ("https://museum.example/caf%C3%A9", "https://museum.example/caf%C3%A9/"),
            ("https://museum.example/collection/index.html", nil), ("https://museum.example:0/", nil),
            ("https://museum.example:99999/", nil), ("https://museum.example:/", nil),
            ("https://museum.example/{x}", nil),
            ("https://museum.example/<b>", nil), ("https://museum.example/a b", nil), ("https://musée.example/", nil),
            ("https://-museum.example/", nil), ("https://museum..example/", nil), ("https://museum.example/%zz", nil),
            ("https://user@museum.example/", nil), ("https://museum.example#top", nil),
            ("https://museum.example/a/../", nil), ("https://museum.example//", nil),
            ("https://museum.example/./a", nil),
        ] as [(String, String?)])
    func `a site's address is an absolute http(s) URL of a folder, ending in a slash`(text: String, expected: String?) {
        #expect(SiteIdentity.siteURL(text) == expected)
        #expect((SiteIdentity.siteURLProblem(text) == nil) == (expected != nil))
    }

    @Test func `a refused site address says why, in words`() {
        #expect(
            SiteIdentity.siteURLProblem("https://museum.example/collection/index.html")?.contains("index.html") == true)
        #expect(SiteIdentity.siteURLProblem("https://musée.example/")?.contains("xn--") == true)
        #expect(SiteIdentity.siteURLProblem("https://museum.example:70000/")?.contains("port") == true)
        #expect(SiteIdentity.siteURLProblem("https://museum.example/{x}")?.contains("percent-encode") == true)
    }

    @Test func `sizes read as a download counts them`() {
        #expect(DataFile.size(1) == "1 byte")
        #expect(DataFile.size(999) == "999 bytes")
        #expect(DataFile.size(1_250) == "1.25 KB")
        #expect(DataFile.size(83_400) == "83.4 KB")
        #expect(DataFile.size(999_400) == "999 KB")
        #expect(DataFile.size(3_070_000_000) == "3.07 GB")
    }
}

/// Issue 37, item 4: browsing by type and by period.
@Suite struct BrowseTests {
    @Test(arguments: [
        (1600, "17th century"), (1699, "17th century"), (1700, "18th century"), (1, "1st century"),
        (99, "1st century"), (100, "2nd century"), (2000, "21st century"), (1150, "12th century"),
        (-1, "1st century BC"), (-100, "1st century BC"), (-101, "2nd century BC"), (0, "1st century BC"),
        (-450, "5th century BC"), (Int.min, "92233720368547759th century BC"), (Int.max, "92233720368547759th century"),
    ])
    func `centuries are named as a reader names them`(year: Int, label: String) {
        #expect(BrowseIndex.centuryLabel(BrowseIndex.century(year)) == label)
    }

    @Test func `types that fold to one sort key get the same page names whatever order they came in`() throws {
        let spellings = ["Étude", "etude", "ETUDE ", "Ceramique", "Céramique", "print"]
        var named: Set<[String]> = []
        for seed in 0..<20 {
            var random = SplitMix64(seed: UInt64(seed))
            var index = BrowseIndex()
            for type in spellings.shuffled(using: &random) { try index.add(card: [], type: type, yearBegin: nil) }
            named.insert(index.groups().types.map { "\($0.slug)=\($0.group.label)" })
        }
        #expect(named.count == 1, "\(named)")
    }

    @Test func `cards kept in the scratch file read back whole, while its pages are let go`() throws {
        var index = BrowseIndex(cards: SpilledRecords(inMemory: 1_000, readBetweenReleases: 2_000))
        let cards = (0..<500).map { Array("<li>card \($0) \(String(repeating: "é", count: $0 % 37))</li>".utf8) }
        for (number, card) in cards.enumerated() {
            try index.add(card: card, type: number % 2 == 0 ? "print" : "", yearBegin: 1600 + number)
        }
        try index.finish()
        for round in 0..<50 {
            let lower = round * 97 % 500
            let upper = min(500, lower + round * 31 % 180)
            let numbers = (lower..<upper).map(Int32.init)
            #expect(index.cards(numbers[...]) == cards[lower..<upper].flatMap { $0 }, "round \(round)")
        }
    }

    @Test func `the period pages show every object once, the type pages every object with a type once`() async throws {
        let objects = (0..<450).map { number in
            ArtObject(
                id: "B-\(number)", title: "Work \(number)", maker: number % 3 == 0 ? "Jan Steen" : "Frans Hals",
                date: number % 10 == 0 ? nil : "\(1500 + number)",
                details: ObjectDetails(
                    objectType: number % 7 == 0 ? nil : ["painting", "Painting", "print", "drawing"][number % 4],
                    yearBegin: number % 10 == 0 ? nil : 1500 + number, yearEnd: number % 10 == 0 ? nil : 1500 + number))
        }
        let spy = CatalogDisplayLogicSpy()
        let model = try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
            .makeViewModel(
                response: Seeds.response([
                    ArtistSection(maker: "Jan Steen", objects: objects.filter { $0.maker == "Jan Steen" }),
                    ArtistSection(maker: "Frans Hals", objects: objects.filter { $0.maker == "Frans Hals" }),
                ]))
        let folder = try TemporaryFolder()
        let writer = CatalogWriter(outputDirectory: folder.path, formats: [.html], templates: try TemplateLibrary())
        _ = try await writer.displayCatalog(viewModel: model)
        func shown(in folderName: String) throws -> [String] {
            try TemporaryFolder.files(in: folder.url.appendingPathComponent(folderName)).values.flatMap {
                String(decoding: $0, as: UTF8.self).matches(of: /data-object-id="([^"]*)"/).map { String($0.output.1) }
            }
        }
        let periods = try shown(in: "periods")
        #expect(periods.count == 450 && Set(periods).count == 450)
        let types = try shown(in: "types")
        let typed = objects.filter { !($0.details.objectType ?? "").isEmpty }
        #expect(types.count == typed.count && Set(types) == Set(typed.map(\.id)))
        let list = try folder.read("types.html")
        // `painting` and `Painting` are one type, named as the catalog's first object of it spells it.
        #expect(list.components(separatedBy: #"<a href="types/painting"#).count == 2)
        #expect(list.contains(#"<a href="types/painting.html">Painting</a>"#))
        let paintings = typed.filter { $0.details.objectType?.lowercased() == "painting" }.count
        #expect(list.contains("\(paintings) objects"))
        #expect(try folder.read("periods.html").contains(#"<a href="periods/undated.html">Undated</a>"#))
        #expect(
            FileManager.default.fileExists(atPath: folder.path + "/types/painting--2.html") == (paintings > 200))
        let index = try folder.read("index.html")
        #expect(index.contains(#"<a href="types.html">object type</a>"#) && index.contains(#"href="periods.html""#))
    }
}
