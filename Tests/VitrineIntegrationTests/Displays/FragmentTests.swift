import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineOutput

/// A page rendered again copies the cards and object lines that did not change out of the last run's page
/// (`TemplateFragments`, the catalog's fragment indexes): the page is byte for byte the one rendered whole, and a fragment is
/// copied only where its key says it shows the same (issue 13, item 3 and the night's time).
@Suite struct FragmentTests {
    private let presenter: ExportPresenter = {
        let spy = CatalogDisplayLogicSpy()
        return ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy)
    }()

    struct Model: TemplateContext {
        var values: [TemplateKey: TemplateValue]
        func value(for key: TemplateKey) -> TemplateValue? { values[key] }
    }

    /// A page with a list of fragments, one per title; the page also answers `siteTitle`.
    private static func page(_ titles: [String], known: KnownFragments? = nil) -> Model {
        Model(values: [
            .siteTitle: .text("Site"),
            .cards: .fragments(
                TemplateFragments(
                    count: titles.count, element: { Model(values: [.title: .text(titles[$0])]) },
                    ownNames: [.title], seed: Fingerprint(), known: known)),
        ])
    }

    private static func compile(_ template: String) throws -> CompiledTemplate {
        var compiler = MustacheCompiler(sources: ["page": template], origins: [:])
        return try compiler.compile("page")
    }

    /// The page's bytes, fragments and walk fingerprint.
    private static func render(_ template: CompiledTemplate, _ model: Model) -> RenderedPage {
        var output = RenderedPage(fingerprint: Fingerprint())
        template.render(model, into: &output)
        return output
    }

    /// The fragments of a rendering kept in a file, as a later rendering finds them.
    private static func known(_ rendered: RenderedPage, in folder: TemporaryFolder) throws -> KnownFragments {
        let path = folder.url.appendingPathComponent("last.html").path
        try Data(rendered.page.bytes).write(to: URL(fileURLWithPath: path))
        let places = Dictionary(
            rendered.page.fragments.map {
                ($0.key, KnownFragments.Place(file: 0, start: $0.start, count: $0.end - $0.start))
            }, uniquingKeysWith: { first, _ in first })
        return KnownFragments(places: places, files: [(open(path, O_RDONLY), rendered.page.bytes.count)])
    }

    @Test func `a list rendered again copies what did not change and is the list rendered whole`() throws {
        let folder = try TemporaryFolder()
        let template = try Self.compile("<ul>\n{{#cards}}<li>{{title}}</li>\n{{/cards}}</ul>\n")
        let first = Self.render(template, Self.page(["One", "Two & two", "Three"]))
        #expect(first.page.fragments.count == 3)
        #expect(
            first.page.fragments.map { String(decoding: first.page.bytes[$0.start..<$0.end], as: UTF8.self) } == [
                "<li>One</li>\n", "<li>Two &amp; two</li>\n", "<li>Three</li>\n",
            ])

        let known = try Self.known(first, in: folder)
        let titles = ["Zero", "One", "Three", "Two & two, revised"]
        let again = Self.render(template, Self.page(titles, known: known))
        let whole = Self.render(template, Self.page(titles))
        #expect(String(decoding: again.page.bytes, as: UTF8.self) == String(decoding: whole.page.bytes, as: UTF8.self))
        #expect(known.copied == 2, "One and Three are copied; Zero and the revised title are rendered")
        #expect(again.values.fingerprint == whole.values.fingerprint, "copied or rendered, a fragment counts alike")
        #expect(again.page.fragments == whole.page.fragments)
        #expect(whole.values.fingerprint != first.values.fingerprint)
    }

    @Test func `a body that asks for an enclosing context's name is rendered element by element`() throws {
        let folder = try TemporaryFolder()
        let template = try Self.compile("{{#cards}}{{title}} of {{siteTitle}};{{/cards}}")
        let first = Self.render(template, Self.page(["One", "Two"]))
        #expect(first.page.fragments.isEmpty, "a card's key does not cover the site's title")
        let known = try Self.known(first, in: folder)
        let again = Self.render(template, Self.page(["One", "Two"], known: known))
        #expect(String(decoding: again.page.bytes, as: UTF8.self) == "One of Site;Two of Site;")
        #expect(known.copied == 0)
    }

    /// A context between the page and its cards (a page link around them) answers a name no card does.
    @Test func `a body that asks for a name of a context between it and the page is rendered element by element`()
        throws
    {
        let template = try Self.compile("{{#pages}}{{#cards}}{{title}} on {{href}};{{/cards}}{{/pages}}")
        var page = Self.page(["One", "Two"])
        page.values[.pages] = .list([Model(values: [.href: .text("p1.html")])])
        let first = Self.render(template, page)
        #expect(String(decoding: first.page.bytes, as: UTF8.self) == "One on p1.html;Two on p1.html;")
        #expect(first.page.fragments.isEmpty, "a card's key does not cover the page link's href")
    }

    @Test func `two sections over one list are told apart`() throws {
        let folder = try TemporaryFolder()
        let template = try Self.compile("{{#cards}}A:{{title}};{{/cards}}|{{#cards}}B:{{title}};{{/cards}}")
        let first = Self.render(template, Self.page(["One", "Two"]))
        #expect(Set(first.page.fragments.map(\.key)).count == 4)
        let known = try Self.known(first, in: folder)
        let again = Self.render(template, Self.page(["Two", "One"], known: known))
        #expect(String(decoding: again.page.bytes, as: UTF8.self) == "A:Two;A:One;|B:Two;B:One;")
        #expect(known.copied == 4)
    }

    /// The names a model answers, of every name there is.
    private static func answered(_ model: some TemplateContext) -> Set<TemplateKey> {
        Set(TemplateKey.allCases.filter { model.value(for: $0) != nil })
    }

    @Test func `the names each model says it answers are the ones it answers`() async throws {
        let viewModel = try await presenter.makeViewModel(
            response: Seeds.response([
                ArtistSection(
                    maker: "Jan Steen",
                    objects: (0..<3).map {
                        Seeds.object("SK-\($0)", "Jan Steen", title: "Study \($0)", image: Seeds.google("p\($0)"))
                    })
            ]))
        let plan = GalleryPlan(viewModel, cardsPerPage: 1)
        // The middle page of three: it has a previous and a next page.
        let page = plan.artistPage(0, 1)
        #expect(Self.answered(page) == ArtistPage.names)
        let cards = try #require(page.value(for: .cards))
        guard case .fragments(let list) = cards else {
            Issue.record("an artist page's cards are fragments")
            return
        }
        #expect(Self.answered(list.element(0)) == Card.names)
        #expect(list.ownNames == Card.names)

        let sections = MarkdownDisplay.sections(of: viewModel, 1, root: "../")
        let section = try #require(sections.first)
        #expect(Self.answered(section) == MarkdownSection.names)
        guard case .fragments(let lines) = try #require(section.value(for: .objects)) else {
            Issue.record("a section's object lines are fragments")
            return
        }
        #expect(Self.answered(lines.element(0)) == MarkdownObject.names)
        #expect(Self.answered(MarkdownCatalog(catalog: viewModel, sections: sections)) == MarkdownCatalog.names)
        #expect(
            Self.answered(MarkdownLetter(title: "T", label: "J", countLabel: "1 maker", sections: sections))
                == MarkdownLetter.names)
        // A line's key is made of the names the template asks for: the page of its section only when asked.
        #expect(lines.key(0, [.title]) != lines.key(0, [.title, .sectionPageName]))
        #expect(lines.key(0, [.title]) != lines.key(1, [.title]))
        #expect(lines.key(0, [.title, .id]) == lines.key(0, [.title, .id]))
    }

    // MARK: - A catalog written again

    /// 6,000 objects of three makers (past the Markdown catalog's split), `revised` of them with a new title; some
    /// left out and some added when `changed`.
    private func model(changed: Bool) async throws -> CatalogViewModel {
        let sections = ["Aelbert Cuyp", "Ferdinand Bol", "Jan Steen"].enumerated().map { number, maker in
            var objects = (0..<2_000).compactMap { index -> ArtObject? in
                if changed, index % 97 == 5 { return nil }
                let title = changed && index % 89 == 3 ? "Revised study \(index)" : "Study \(index)"
                return Seeds.object(
                    "SK-\(number)-\(index)", maker, title: title, image: Seeds.google("p\(number)-\(index)"))
            }
            if changed {
                objects += (0..<15).map {
                    Seeds.object("SK-\(number)-new-\($0)", maker, title: "New study \($0)", image: nil)
                }
            }
            return ArtistSection(maker: maker, objects: objects)
        }
        return try await presenter.makeViewModel(response: Seeds.response(sections))
    }

    private static func writer(_ folder: TemporaryFolder) throws -> CatalogWriter {
        CatalogWriter(
            outputDirectory: folder.path, formats: [.html, .markdown], templates: try TemplateLibrary(),
            cardsPerPage: 100)
    }

    /// A folder's files; none of them Vitrine's own.
    private static func files(_ folder: TemporaryFolder) throws -> [String: Data] {
        let files = try TemporaryFolder.files(in: folder.url)
        #expect(!files.keys.contains { $0.contains("/.vitrine") }, "Vitrine's records are not published")
        return files
    }

    /// Where the catalog in `folder` keeps one of its records (`artists.fragments`).
    private static func record(_ name: String, of folder: TemporaryFolder) throws -> String {
        try #require(CatalogRecords(of: folder.path, output: folder.url)).path(name)
    }

    @Test func `a changed catalog copies its unchanged cards and lines and is the catalog written fresh`() async throws
    {
        let night = try TemporaryFolder()
        let first = try await Self.writer(night).displayCatalog(viewModel: model(changed: false))
        #expect(first.copied == 0)
        #expect(FileManager.default.fileExists(atPath: try Self.record("artists.fragments", of: night)))
        #expect(FileManager.default.fileExists(atPath: try Self.record("catalog.fragments", of: night)))
        _ = try Self.files(night)

        let changed = try await model(changed: true)
        let written = try await Self.writer(night).displayCatalog(viewModel: changed)
        let fresh = try TemporaryFolder()
        try await Self.writer(fresh).displayCatalog(viewModel: changed)
        let (nightFiles, freshFiles) = (try Self.files(night), try Self.files(fresh))
        #expect(nightFiles.keys.sorted() == freshFiles.keys.sorted())
        let differing = nightFiles.keys.filter { nightFiles[$0] != freshFiles[$0] }.sorted()
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        // About 5,700 unchanged objects: each a card and a Markdown line, nearly all copied.
        #expect(written.copied > 10_000, "\(written.copied) copied")

        // Unchanged, every file is kept, each page with the fragments it lists (a letter is made again from its
        // copied lines, found the same, and kept).
        let again = try await Self.writer(night).displayCatalog(viewModel: changed)
        #expect(again.rendered == 0, "\(again)")
        #expect(try Self.files(night) == freshFiles)
    }

    /// Issue 35, item 4: an older Vitrine kept its manifest and fragment indexes in the site it published.
    @Test func `a catalog whose records an older Vitrine kept inside it is taken over, and they are unpublished`()
        async throws
    {
        let night = try TemporaryFolder()
        try await Self.writer(night).displayCatalog(viewModel: model(changed: false))
        try await Self.writer(night).displayCatalog(viewModel: model(changed: false))
        // Both catalogs, the live one and the spare beside it, as the older Vitrine left them.
        let spare = OutputFolder.spareURL(of: night.url)
        for folder in [night.url, spare] {
            let records = try #require(CatalogRecords(of: folder.path, output: night.url))
            var manifest = try String(contentsOfFile: records.path(OutputManifest.fileName), encoding: .utf8)
            for index in ["artists/.vitrine-fragments", "catalog/.vitrine-fragments"] {
                try Data("vitrine fragments 1\n".utf8).write(to: folder.appendingPathComponent(index))
                manifest += index + "\n"
            }
            try manifest.write(
                to: folder.appendingPathComponent(OutputManifest.legacyFileName), atomically: true, encoding: .utf8)
        }
        try FileManager.default.removeItem(at: CatalogRecords.root(of: night.url))

        let changed = try await model(changed: true)
        let written = try await Self.writer(night).displayCatalog(viewModel: changed)
        #expect(written.kept > 5_000, "the older catalog's pages are Vitrine's, and kept: \(written)")
        let fresh = try TemporaryFolder()
        try await Self.writer(fresh).displayCatalog(viewModel: changed)
        #expect(try Self.files(night) == Self.files(fresh))
        #expect(FileManager.default.fileExists(atPath: try Self.record("artists.fragments", of: night)))
    }

    @Test func `a damaged or hand-edited fragment index is not trusted, and the pages are rendered`() async throws {
        let night = try TemporaryFolder()
        try await Self.writer(night).displayCatalog(viewModel: model(changed: false))
        // Its bytes changed since it was written (a byte of its last fragment): a fragment could point anywhere.
        let index = URL(fileURLWithPath: try Self.record("artists.fragments", of: night))
        var bytes = try Data(contentsOf: index)
        bytes[bytes.count - 20] ^= 0xFF
        try bytes.write(to: index)
        // A letter edited by hand since: its lines are not copied from it.
        let letter = night.url.appendingPathComponent("catalog/f.md")
        try (try String(contentsOf: letter, encoding: .utf8) + "\nMy note.\n").write(
            to: letter, atomically: true, encoding: .utf8)

        let changed = try await model(changed: true)
        let written = try await Self.writer(night).displayCatalog(viewModel: changed)
        let fresh = try TemporaryFolder()
        try await Self.writer(fresh).displayCatalog(viewModel: changed)
        #expect(try Self.files(night) == Self.files(fresh))
        // Only the letters not edited (Aelbert Cuyp's, Jan Steen's) had lines to copy.
        #expect(written.copied > 3_000 && written.copied < 4_000, "\(written.copied) copied")
    }
}
