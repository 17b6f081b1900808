import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays

/// Every variable `Templates/README.md` documents, for every kind of page, reaches a user's own template with a
/// value: documentation and code cannot drift apart again (issue 15: a Markdown template got blanks for
/// `thumbnail2xURL`, `largeImageURL`, `pageName` and `sectionPageName`).
@Suite struct TemplateContractTests {
    private static let readme: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Templates/README.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The names in the first column of the README's table under `heading`.
    private static func documented(_ heading: String) -> [String] {
        guard let start = readme.range(of: heading) else { return [] }
        var names: [String] = []
        var inTable = false
        for line in readme[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                if inTable { break }
                continue
            }
            inTable = true
            let first = line.split(separator: "|").first ?? ""
            names += first.matches(of: /`([A-Za-z0-9]+)`/).map { String($0.output.1) }
        }
        return names
    }

    /// A probe for a table's names: `[name={{name}}]` for each value; a list's section with its elements' probe.
    /// `lists` gives, for a list name, the README heading of its elements' table (or their names).
    private static func probe(_ names: [String], lists: [String: [String]]) -> String {
        names.map { name in
            if let elements = lists[name] {
                return "{{#\(name)}}" + probe(elements, lists: lists) + "{{/\(name)}}"
            }
            return "[\(name)={{\(name)}}]"
        }.joined()
    }

    /// Renders `probe` as the user's version of `template` with each model, and returns every documented name
    /// that never came out with a value.
    private static func blanks(
        _ template: String, probe: String, names: [String], models: [any TemplateContext], mayBeBlank: Set<String> = []
    ) throws -> [String] {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("\(template).mustache")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(probe.utf8).write(to: file)
        let templates = try TemplateLibrary(directory: folder.path)
        let rendered = try models.map { try templates.renderText(template, $0) }.joined()
        var blanks: [String] = []
        for name in names {
            let values = rendered.matches(of: try Regex("\\[\(name)=([^\\]]*)\\]")).map { $0.output[1].substring ?? "" }
            if mayBeBlank.contains(name) ? values.isEmpty : !values.contains(where: { !$0.isEmpty }) {
                blanks.append(name)
            }
        }
        return blanks
    }

    // MARK: - Samples

    /// Two makers, the first with three objects on three pages (so pages have neighbours); every image IIIF.
    private static func small() async throws -> CatalogViewModel {
        func object(_ id: String, _ year: String) -> ArtObject {
            ArtObject(
                id: id, title: "Work \(id)", maker: "Rembrandt van Rijn", date: year,
                image: ImageReference(
                    url: "https://iiif.micr.io/\(id)/full/max/0/default.jpg", width: 4_000, height: 3_000,
                    sizing: .iiif(service: "https://iiif.micr.io/\(id)", cachedWidths: [])),
                objectURL: "https://www.rijksmuseum.nl/en/collection/\(id)",
                details: ObjectDetails(
                    description: "A study.\n\nIn oil.", objectType: "painting", materials: ["oil paint"],
                    rights: Rights(
                        url: "https://creativecommons.org/licenses/by/4.0/", label: "CC BY 4.0", isOpen: true,
                        attribution: "Photo by the museum")))
        }
        let presenter = ExportPresenter(
            thumbnailWidth: 400, catalogDisplay: CatalogDisplayLogicSpy(), progressDisplay: CatalogDisplayLogicSpy(),
            site: SiteIdentity(
                description: "Prints and drawings", url: "https://museum.example/", logo: "/home/museum/logo.png"))
        return try await presenter.makeViewModel(
            response: Seeds.response([
                ArtistSection(
                    maker: "Rembrandt van Rijn",
                    objects: [object("SK-1", "1640"), object("SK-2", "1641"), object("SK-3", "1642")]),
                ArtistSection(maker: "Frans Hals", objects: [object("SK-4", "1620")]),
            ]))
    }

    /// More makers than the index lists, so letters get pages of their own.
    private static func many() async throws -> CatalogViewModel {
        let presenter = ExportPresenter(
            thumbnailWidth: 400, catalogDisplay: CatalogDisplayLogicSpy(), progressDisplay: CatalogDisplayLogicSpy(),
            site: SiteIdentity(url: "https://museum.example/", logo: "/home/museum/logo.png"))
        return try await presenter.makeViewModel(
            response: Seeds.response(
                (0...HTMLDisplay.makersPerPage).map { number in
                    ArtistSection(
                        maker: "Maker \(number)",
                        objects: [ArtObject(id: "M-\(number)", title: "Study", maker: "Maker \(number)", date: "1700")])
                }))
    }

    // MARK: - Page kinds

    @Test func `every documented variable of the index, its letters, groups, makers and cards has a value`()
        async throws
    {
        let every = Self.documented("### Every gallery page")
        let names = every + Self.documented("### The index")
        let lists: [String: [String]] = [
            "letters": Self.documented("Each of `letters`:"), "groups": Self.documented("Each of `groups`:"),
            "chunks": ["href", "label"], "sections": Self.documented("Each maker in `sections`:"),
            "pages": ["number", "href"], "cards": Self.documented("### Cards"),
        ]
        #expect(names.count >= 10 && lists.values.allSatisfy { $0.count >= 2 })
        let groupNames = lists["groups", default: []] + Self.documented("### Maker lists")
        let probe =
            Self.probe(names.filter { $0 != "groups" }, lists: lists) + "{{#groups}}"
            + Self.probe(groupNames, lists: lists) + "{{/groups}}"
        let all =
            names + groupNames + lists["letters", default: []] + lists["sections", default: []]
            + lists["cards", default: []]
        let blanks = try Self.blanks(
            "html/index.html", probe: probe, names: all.filter { lists[$0] == nil },
            models: await [GalleryPlan(Self.small()).index(), GalleryPlan(Self.many()).index()], mayBeBlank: ["root"])
        #expect(blanks == [])
    }

    @Test func `every documented variable of a letter's page has a value`() async throws {
        let lists: [String: [String]] = [
            "sections": Self.documented("Each maker in `sections`:"), "pages": ["number", "href"],
        ]
        let names =
            Self.documented("### Every gallery page") + Self.documented("### A letter's page")
            + Self.documented("### Maker lists")
        let pages = try await GalleryPlan(Self.many()).letterPages().map(\.page)
        #expect(!pages.isEmpty)
        let blanks = try Self.blanks(
            "html/letter.html", probe: Self.probe(names, lists: lists),
            names: (names + lists["sections", default: []]).filter { lists[$0] == nil && $0 != "cards" },
            models: pages)
        #expect(blanks == [])
    }

    @Test func `every documented variable of an artist's page and its cards has a value`() async throws {
        let lists: [String: [String]] = [
            "pages": ["number", "href", "current", "gapBefore"], "cards": Self.documented("### Cards"),
        ]
        let names = Self.documented("### Every gallery page") + Self.documented("### An artist's page")
        let viewModel = try await Self.small()
        let rembrandt = try #require(viewModel.sections.firstIndex { $0.objects.count == 3 })
        let blanks = try Self.blanks(
            "html/artist.html", probe: Self.probe(names, lists: lists),
            names: (names + lists["cards", default: []]).filter { lists[$0] == nil },
            models: [GalleryPlan(viewModel, cardsPerPage: 1).artistPage(rembrandt, 1)])
        #expect(blanks == [])
    }

    @Test func `every documented variable of the data page has a value`() async throws {
        let lists: [String: [String]] = [
            "dataFiles": ["file", "href", "label", "countLabel", "text"],
            "rights": ["label", "rightsURL", "hasRightsURL", "countLabel"],
        ]
        let names = Self.documented("### Every gallery page") + Self.documented("### The data page")
        #expect(names.contains("openLabel") && names.contains("dataFiles"))
        let plan = await GalleryPlan(try Self.small())
        var rights = RightsTally()
        rights.add(label: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/", open: true)
        rights.add(label: "", url: "", open: false)
        let page = DataPage(
            head: PageHead(site: plan.site, root: "", path: "data.html", title: "Data", description: "The data."),
            subtitle: "4 objects by 2 makers",
            files: [DataFile(file: CatalogFile(format: .csv, size: 1_200), splitMarkdown: false)], rights: rights,
            objectCount: 4)
        let blanks = try Self.blanks(
            "html/data.html", probe: Self.probe(names, lists: lists),
            names: (names + lists.values.joined()).filter { lists[$0] == nil }, models: [page],
            mayBeBlank: ["root"])
        #expect(blanks == [])
    }

    @Test func `every documented variable of the browse pages has a value`() async throws {
        let plan = await GalleryPlan(try Self.small())
        let head = PageHead(site: plan.site, root: "../", path: "types/print.html", title: "Prints", description: "d")
        let lists: [String: [String]] = ["groups": ["label", "href", "countLabel"], "pages": ["number", "href"]]
        let every = Self.documented("### Every gallery page")
        let browse = Self.documented("`types.html` and `periods.html` (`html/browse.html`):")
        let group = Self.documented("A type's or a century's page (`html/group.html`):")
        #expect(browse.contains("groups") && group.contains("cardsHTML"))
        let list = BrowseListPage(
            head: head, title: "Object types", subtitle: "4 objects in 1 type",
            groups: [BrowseGroupLink(label: "print", href: "types/print.html", countLabel: "4 objects")])
        #expect(
            try Self.blanks(
                "html/browse.html", probe: Self.probe(every + browse, lists: lists),
                names: (every + browse + lists["groups", default: []]).filter { lists[$0] == nil }, models: [list])
                == [])
        let pages = [
            ArtistPageNames.SectionPage(number: 1, fileName: "print.html", range: 0..<2),
            ArtistPageNames.SectionPage(number: 2, fileName: "print--2.html", range: 2..<4),
        ]
        let models = (0..<2).map {
            BrowseGroupPage(
                head: head, name: "print", countLabel: "4 objects", browseKind: "Object types",
                listHref: "../types.html", pages: pages, pageIndex: $0, cards: "<li class=\"card\"></li>")
        }
        #expect(
            try Self.blanks(
                "html/group.html", probe: Self.probe(every + group, lists: lists),
                names: (every + group).filter { lists[$0] == nil }, models: models)
                == [])
    }

    @Test func `every documented variable of an object's page has a value`() async throws {
        let lists: [String: [String]] = [
            "previous": ["title", "pageName"], "next": ["title", "pageName"], "facts": ["label", "value"],
            "paragraphs": ["text"], "attributionParts": ["text"],
        ]
        let names = Self.documented("### Every gallery page") + Self.documented("### An object's page")
        let viewModel = try await Self.small()
        let rembrandt = try #require(viewModel.sections.firstIndex { $0.objects.count == 3 })
        let plan = GalleryPlan(viewModel, cardsPerPage: 1)
        let page = plan.objectPage(rembrandt, 1)
        let blanks = try Self.blanks(
            "html/object.html", probe: Self.probe(names, lists: lists), names: names.filter { lists[$0] == nil },
            models: [page])
        #expect(blanks == [])
        #expect(
            try TemplateLibrary().renderText("html/object.html", page).contains(
                "href=\"\(viewModel.objectPages[rembrandt][0])\""))
    }

    @Test func `every documented variable of the catalog, its sections and objects reaches a template`() async throws {
        let lists: [String: [String]] = [
            "sections": Self.documented("Each of `sections`:"), "objects": Self.documented("Each of `objects`:"),
        ]
        let names = Self.documented("The root is the catalog:")
        let viewModel = try await Self.small()
        #expect(
            names.count >= 7 && lists["sections", default: []].count >= 6 && lists["objects", default: []].count >= 18)
        let blanks = try Self.blanks(
            "markdown/catalog.md", probe: Self.probe(names, lists: lists),
            names: (names + lists.values.flatMap { $0 }).filter { lists[$0] == nil && $0 != "isUnknownMaker" },
            models: [
                MarkdownCatalog(catalog: viewModel, sections: MarkdownDisplay.sections(of: viewModel, 200, root: ""))
            ])
        #expect(blanks == [])
    }

    @Test func `every documented variable of the split Markdown catalog has a value`() async throws {
        let lists: [String: [String]] = [
            "letters": ["label", "file", "countLabel"], "sections": Self.documented("Each of `sections`:"),
            "objects": Self.documented("Each of `objects`:"),
        ]
        let names = Self.documented("### The split Markdown catalog")
        let viewModel = try await Self.small()
        let models: [any TemplateContext] = [
            MarkdownContents(
                title: viewModel.title, subtitle: viewModel.subtitle,
                letters: [MarkdownLetterLink(label: "R", file: "r.md", countLabel: "1 maker, 3 objects")]),
            MarkdownLetter(
                title: viewModel.title, label: "R", countLabel: "1 maker, 3 objects",
                sections: MarkdownDisplay.sections(of: viewModel, 200, root: "../")),
        ]
        let blanks = try Self.blanks(
            "markdown/letter.md", probe: Self.probe(names, lists: lists),
            names: (names + lists.values.flatMap { $0 }).filter { lists[$0] == nil && $0 != "isUnknownMaker" },
            models: models)
        #expect(blanks == [])
    }
}
