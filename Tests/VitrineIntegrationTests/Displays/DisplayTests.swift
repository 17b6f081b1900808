import CSV
import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineOutput

@Suite struct DisplayTests {
    private func viewModel(_ response: HarvestedCollection = Seeds.catalogResponse) async throws -> CatalogViewModel {
        let spy = CatalogDisplayLogicSpy()
        return try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy).makeViewModel(
            response: response)
    }

    private var hostileViewModel: CatalogViewModel {
        get async throws {
            try await viewModel(
                Seeds.response([
                    ArtistSection(maker: "Jan <b>Steen</b>", objects: Array(Seeds.hostile.prefix(2))),
                    ArtistSection(maker: "Frans Hals", objects: Array(Seeds.hostile.dropFirst(2))),
                ]))
        }
    }

    private func render(_ model: CatalogViewModel, formats: [CatalogFormat] = CatalogFormat.allCases) async throws
        -> (folder: TemporaryFolder, written: [String])
    {
        let folder = try TemporaryFolder()
        let writer = CatalogWriter(outputDirectory: folder.path, formats: formats, templates: try TemplateLibrary())
        let written = try await writer.displayCatalog(viewModel: model)
        return (folder, written.paths)
    }

    // MARK: - Golden files

    @Test func `HTML, Markdown, CSV and JSON Lines match their golden files`() async throws {
        let (folder, written) = try await render(viewModel())
        #expect(
            written.map { URL(fileURLWithPath: $0).lastPathComponent } == [
                "index.html", "catalog.md", "collection.csv", "collection.jsonl", "artists", "assets", "data.html",
                "objects", "periods", "periods.html", "search", "types", "types.html",
            ], "the catalogs' own files first, then the rest by name, however the formats' writing interleaves")
        try Snapshot.assert(folder.read("index.html"), named: "catalog.index.html")
        try Snapshot.assert(folder.read("artists/rembrandt-van-rijn.html"), named: "catalog.artist.html")
        try Snapshot.assert(folder.read("objects/sk-c-5.html"), named: "catalog.object.html")
        try Snapshot.assert(folder.read("data.html"), named: "catalog.data.html")
        try Snapshot.assert(folder.read("types.html"), named: "catalog.types.html")
        try Snapshot.assert(folder.read("types/painting.html"), named: "catalog.type.html")
        try Snapshot.assert(folder.read("catalog.md"), named: "catalog.catalog.md")
        try Snapshot.assert(folder.read("collection.csv"), named: "catalog.collection.csv")
        try Snapshot.assert(folder.read("collection.jsonl"), named: "catalog.collection.jsonl")
        #expect(try folder.read("assets/style.css").contains("prefers-color-scheme: dark"))
    }

    // MARK: - Escaping

    @Test func `HTML escapes every text and keeps only http(s) URLs`() async throws {
        let html = try await render(hostileViewModel, formats: [.html]).folder.read("index.html")
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<b>Steen"))
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("data:text"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(html.contains(#"data-artist="Jan &lt;b&gt;Steen&lt;/b&gt;""#))
        #expect(html.contains(#"data-object-id="X-1""#))
        #expect(html.contains("class=\"frame placeholder\""))
        // Every <img> has alt text, lazy loading and a size.
        for tag in html.components(separatedBy: "<img ").dropFirst() {
            #expect(
                tag.contains("alt=\"") && tag.contains("loading=\"lazy\"") && tag.contains("width=\"")
                    && tag.contains("height=\""))
        }
    }

    /// Details come from the source as text: never markup, never a link that is not http(s), on the page or in the
    /// data files.
    @Test func `a detail page shows a hostile object's details as text, and links only to the web`() async throws {
        var object = Seeds.hostile[0]
        object.details = ObjectDetails(
            description: "<script>alert('d')</script>\n\n<p onclick=x>second</p>", objectType: "<b>print</b>",
            materials: ["<i>ink</i>"], dimensions: "a\u{0}b\r\nc\u{202E}d", subjects: ["</dd><script>"],
            makers: [.init(name: "<em>Steen</em>", role: "painter", lifeDates: "\"1626\"")],
            rights: Rights(
                url: "javascript:alert(3)", label: "<a href=x>open</a>", isOpen: true, attribution: "<u>by</u>"),
            altText: "\" onerror=\"alert(4)",
            otherFacts: [
                .init(label: "<i>Style</i>", value: "<script>x</script>"), .init(label: "\"k\"", value: "v"),
                .init(label: "Site", value: "data:text/html,x"),
            ])
        let model = try await viewModel(Seeds.response([ArtistSection(maker: "Jan Steen", objects: [object])]))
        let (folder, _) = try await render(model, formats: [.html, .csv, .jsonl])
        let page = try folder.read("objects/x-1.html")
        for raw in [
            "<script>", "<b>print", "<i>ink", "<em>", "<a href=x>", "<u>by", "javascript:", "onerror=\"", "<p onclick",
        ] {
            #expect(!page.contains(raw), "\(raw)")
        }
        #expect(page.contains("<p>&lt;script&gt;alert(&#39;d&#39;)&lt;/script&gt;</p>"))
        #expect(page.contains("<dt>Object type</dt><dd>&lt;b&gt;print&lt;/b&gt;</dd>"))
        #expect(page.contains("<dd>ab\nc d</dd>") || page.contains("<dd>ab\ncd</dd>"), "controls out, lines kept")
        #expect(
            page.contains(
                #"<dt>Rights</dt><dd class="rights">&lt;a href=x&gt;open&lt;/a&gt;<br>&lt;u&gt;by&lt;/u&gt;</dd>"#))
        let line = try folder.read("collection.jsonl")
        let json = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["description"] as? String == "<script>alert('d')</script>\n\n<p onclick=x>second</p>")
        #expect((json["rights"] as? [String: Any])?["url"] is NSNull)
        #expect(
            json["other_facts"] as? [String: String] == [
                "<i>Style</i>": "<script>x</script>", "\"k\"": "v", "Site": "data:text/html,x",
            ])
        // A fact is linked only when it is a web address.
        #expect(page.contains("<dt>Site</dt><dd>data:text/html,x</dd>") && !page.contains("href=\"data:"))
        #expect(page.contains("<dt>&lt;i&gt;Style&lt;/i&gt;</dt><dd>&lt;script&gt;x&lt;/script&gt;</dd>"))
        #expect(!line.contains("<"), "JSON Lines escapes < as the search shards do")
    }

    /// Unsplash's guidelines ask for the photographer's credit with links; the CSV and JSON Lines keep its text.
    @Test func `a credit links the words its license asks to link, and only to the web`() async throws {
        var object = Seeds.hostile[0]
        object.details.rights = Rights(
            url: "https://unsplash.com/license", label: "Unsplash License", isOpen: true,
            attribution: "Photo by <Jane> on Unsplash",
            links: [
                .init(text: "<Jane>", url: "https://unsplash.com/@jane?utm_source=vitrine&utm_medium=referral"),
                .init(text: "Unsplash", url: "javascript:alert(1)"),
            ])
        let model = try await viewModel(Seeds.response([ArtistSection(maker: "Jane", objects: [object])]))
        let (folder, _) = try await render(model, formats: [.html, .jsonl])
        let page = try folder.read("objects/x-1.html")
        #expect(
            page.contains(
                #"<br>Photo by <a href="https://unsplash.com/@jane?utm_source=vitrine&amp;utm_medium=referral" "#
                    + #"rel="noopener">&lt;Jane&gt;</a> on Unsplash</dd>"#))
        #expect(!page.contains("javascript:"))
        let line = try folder.read("collection.jsonl")
        let json = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect((json["rights"] as? [String: Any])?["attribution"] as? String == "Photo by <Jane> on Unsplash")
    }

    @Test(arguments: [
        ("<script>alert(1)</script>", "\\<script\\>alert\\(1\\)\\</script\\>"),
        ("<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert\\(1\\)\\>"),
        ("*bold* _it_ `code`", "\\*bold\\* \\_it\\_ \\`code\\`"),
        ("[link](javascript:alert(1))", "\\[link\\]\\(javascript:alert\\(1\\)\\)"),
        ("# | ~ \\ ! &amp;", "\\# \\| \\~ \\\\ \\! \\&amp;"),
        ("two\nlines", "two lines"),
        ("Self-portrait, c. 1650", "Self-portrait, c. 1650"),
        ("crlf\r\nand\rcr\u{2028}ls\u{85}nel", "crlf and cr ls nel"),
        ("Ébauche — 1650 ✓", "Ébauche — 1650 ✓"),
        // No link of a bare address (GitHub's autolinks): found by a hostile check.
        (
            "see https://evil.example/x, WWW.evil.example or me@evil.example; a: b",
            "see https\\://evil.example/x, WWW\\.evil.example or me\u{2060}@evil.example; a: b"
        ),
        ("https://www.museum.example/objects/SK-A-1", "https\\://www\\.museum.example/objects/SK-A-1"),
    ])
    func `Markdown escaping leaves text as text`(input: String, expected: String) {
        var output = RenderedBytes()
        output.append(input, escaping: .markdown)
        #expect(String(decoding: output.bytes, as: UTF8.self) == expected)
    }

    @Test func `a web address in Markdown is escaped as a destination, not broken up as a bare link`() throws {
        var output = RenderedBytes()
        output.append("https://www.museum.example/photo@2x_(1).jpg", escaping: .markdownAddress)
        #expect(String(decoding: output.bytes, as: UTF8.self) == "https://www.museum.example/photo@2x\\_\\(1\\).jpg")
        // Values named …URL in a Markdown template are addresses; any other value is text.
        var compiler = MustacheCompiler(
            sources: ["t": "{{% CONTENT_TYPE: MARKDOWN}}[{{title}}]({{objectURL}}) {{thumbnailURL}}"], origins: [:])
        let template = try compiler.compile("t")
        let kinds = template.nodes.compactMap { node -> TemplateEscaping? in
            if case .value(_, let escaping) = node { escaping } else { nil }
        }
        #expect(kinds == [.markdown, .markdownAddress, .markdownAddress])
    }

    @Test func `the Markdown catalog never lets HTML or links from data through`() async throws {
        let markdown = try await render(hostileViewModel, formats: [.markdown]).folder.read("catalog.md")
        // Every < from data is escaped: none stands without a backslash before it.
        #expect(markdown.firstRange(of: /(^|[^\\])</.anchorsMatchLineEndings()) == nil)
        #expect(!markdown.contains("](javascript:") && !markdown.contains("[link](http://evil.example)"))
        let headings = markdown.split(separator: "\n").filter { $0.hasPrefix("## ") }
        #expect(headings == ["## Contents", "## Frans Hals", "## Jan \\<b\\>Steen\\</b\\>"])
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("comma, inside", "\"comma, inside\""),
        ("quote \"here\"", "\"quote \"\"here\"\"\""),
        ("line\nbreak", "\"line\nbreak\""),
        ("crlf\r\nbreak", "\"crlf\r\nbreak\""),
        ("=SUM(A1:A2)", "'=SUM(A1:A2)"),
        ("+31 20", "'+31 20"),
        ("-1500", "'-1500"),
        ("@cmd", "'@cmd"),
        ("\tTab", "'\tTab"),
        ("=HYPERLINK(\"x\",\"y\")", "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\""),
        // Found by a hostile check: record ids -1 and '-1 were both '-1.
        ("'-1", "''-1"),
        ("'t Hooft", "'t Hooft"),
        ("''=x", "'''=x"),
    ])
    func `CSV cells are quoted by RFC 4180 and formulas defused`(input: String, expected: String) {
        #expect(CSVCell.field(input) == expected)
    }

    @Test func `a CSV of several megabytes, written a piece at a time, is the whole file; unchanged, it is kept`()
        async throws
    {
        let objects = (0..<30_000).map {
            ArtObject(id: "SK-A-\($0)", title: "Portret van een vrouw, \"study\" \($0)", maker: "Anoniem", date: "1650")
        }
        let model = try await viewModel(Seeds.response([ArtistSection(maker: "Anoniem", objects: objects)]))
        let output = try TemporaryFolder()
        let writer = CatalogWriter(outputDirectory: output.path, formats: [.csv], templates: try TemplateLibrary())
        _ = try await writer.displayCatalog(viewModel: model)
        let written = try Data(contentsOf: output.url.appendingPathComponent("collection.csv"))
        #expect(written.count > 2 * RowFileWriter.piece)
        #expect(written == Data(CSVDisplay.render(model).utf8))
        let file = output.url.appendingPathComponent("collection.csv").path
        let before = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int
        let again = try await writer.displayCatalog(viewModel: model)
        #expect(again.kept == 1 && again.rendered == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int == before)
    }

    @Test func `the CSV reads back with a CSV library: header, one row per object, in section order`() async throws {
        let model = try await hostileViewModel
        let text = CSVDisplay.render(model)
        let reader = try CSVReader(string: text, hasHeaderRow: true)
        #expect(
            reader.headerRow == [
                "object_id", "title", "artist", "date", "thumbnail_url", "image_url", "object_url", "source",
                "record_id", "datestamp", "year_begin", "year_end", "object_type", "materials", "dimensions",
                "description", "credit_line", "place", "subjects", "rights_url", "rights_label", "open_access",
                "maker_sort_name", "makers", "attribution", "alt_text", "other_facts",
            ])
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        #expect(rows.map { $0[0] } == model.sections.flatMap { $0.objects.map(\.id) })
        #expect(rows.allSatisfy { $0.count == 27 && $0[7] == "test" && $0[8] == $0[0] })
        // Found by review: a year BCE was written as text (`'-500`), defused like a formula.
        var antique = Seeds.hostile[3]
        antique.details.yearBegin = -500
        antique.details.yearEnd = -450
        let row = await CSVDisplay.render(
            try viewModel(Seeds.response([ArtistSection(maker: "M", objects: [antique])])))
        #expect(row.contains(",-500,-450,"))
        let quoted = try #require(rows.first { $0[0] == "X-5" })
        #expect(quoted[1] == "Quote \"here\", comma, and new line")
        #expect(quoted[2] == "Frans Hals" && quoted[3] == "'+1")
        #expect(rows.first { $0[0] == "X-4" }?[1] == "'=HYPERLINK(\"http://evil.example\",\"click\")")
    }

    // MARK: - Templates

    @Test func `a user's template folder replaces a bundled template by name`() async throws {
        let templates = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: templates.url.appendingPathComponent("markdown"), withIntermediateDirectories: true)
        try "{{% CONTENT_TYPE: MARKDOWN}}\n{{#sections}}* {{name}}: {{countLabel}}\n{{/sections}}"
            .write(
                to: templates.url.appendingPathComponent("markdown/catalog.md.mustache"), atomically: true,
                encoding: .utf8)
        let output = try TemporaryFolder()
        let writer = CatalogWriter(
            outputDirectory: output.path, formats: [.markdown, .html],
            templates: try TemplateLibrary(directory: templates.path))
        _ = try await writer.displayCatalog(viewModel: viewModel())
        #expect(try output.read("catalog.md").hasPrefix("* Aelbert Cuyp: 1 object\n* Émile Bernard: 1 object\n"))
        #expect(try output.read("index.html").contains("<!DOCTYPE html>"))
    }

    /// Issue 37, item 9: a template under a wrong name or in a wrong folder was silently ignored, and a typo in a
    /// variable was a log line with no hint.
    @Test func `a template folder's unused files and unknown names are named, with what was likely meant`() throws {
        let templates = try TemporaryFolder()
        let html = templates.url.appendingPathComponent("html")
        try FileManager.default.createDirectory(at: html, withIntermediateDirectories: true)
        let files = [
            "html/indx.html.mustache": "<h1>{{title}}</h1>",
            "object.html.mustache": "{{title}}",
            "html/card.mustache": "{{titel}} {{> html/badge}}",
            "html/badge.mustache": "{{maker}}",
            "html/unused.css": "body {}",
        ]
        for (path, text) in files {
            try text.write(to: templates.url.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        let library = try TemplateLibrary(directory: templates.path)
        #expect(
            library.warnings == [
                "warning: --templates \(templates.path): html/indx.html.mustache replaces no template and no template "
                    + "includes it; did you mean html/index.html.mustache?",
                "warning: --templates \(templates.path): html/unused.css replaces no template and no template "
                    + "includes it; did you mean html/style.css?",
                "warning: --templates \(templates.path): object.html.mustache replaces no template and no template "
                    + "includes it; did you mean html/object.html.mustache?",
                "warning: html/card.mustache uses {{titel}}, which no page has: it renders blank; did you mean title?",
            ])
        #expect(try TemplateLibrary().warnings.isEmpty)
    }

    @Test func `a template that does not parse is named in the error`() throws {
        let templates = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: templates.url.appendingPathComponent("html"), withIntermediateDirectories: true)
        try "{{#sections}}unclosed".write(
            to: templates.url.appendingPathComponent("html/index.html.mustache"), atomically: true, encoding: .utf8)
        let error = #expect(throws: ExportError.self) { try TemplateLibrary(directory: templates.path) }
        #expect(
            error?.description
                == "template \(templates.path)/html/index.html.mustache, line 1: {{#sections}} is never closed")
    }

    // MARK: - Atomic output

    @Test func `a failing run leaves the previous catalog untouched`() async throws {
        let output = try TemporaryFolder()
        let good = CatalogWriter(
            outputDirectory: output.path, formats: CatalogFormat.allCases, templates: try TemplateLibrary())
        _ = try await good.displayCatalog(viewModel: viewModel())
        try "keep me".write(to: output.url.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let before = try ["index.html", "catalog.md", "collection.csv", "assets/style.css"].map { try output.read($0) }

        let failing = CatalogWriter(outputDirectory: output.path, displays: [CSVDisplay(), FailingDisplay()])
        await #expect(throws: ExportError.self) {
            try await failing.displayCatalog(viewModel: viewModel(Seeds.response([])))
        }

        let after = try ["index.html", "catalog.md", "collection.csv", "assets/style.css"].map { try output.read($0) }
        #expect(after == before)
        #expect(try output.read("README.md") == "keep me")
        // Nothing of Vitrine's own is in the folder: no staging folder, no records.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: output.path).filter {
            $0.hasPrefix(".vitrine")
        }
        #expect(leftovers.isEmpty)
    }

    @Test(arguments: [(PartFailure.write, true), (.write, false), (.finish, true), (.finish, false)])
    func `a format that fails part-way fails the run, whichever writer it is`(
        failure: PartFailure, first: Bool
    ) async throws {
        let output = try TemporaryFolder()
        let good = CatalogWriter(
            outputDirectory: output.path, formats: CatalogFormat.allCases, templates: try TemplateLibrary())
        _ = try await good.displayCatalog(viewModel: viewModel())
        let before = try ["index.html", "catalog.md", "collection.csv"].map { try output.read($0) }

        // The first writer runs on the calling thread, the others on the global queue: a failure in either is the
        // run's.
        let others: [any CatalogFileDisplay] = [
            HTMLDisplay(templates: try TemplateLibrary()), CSVDisplay(),
        ]
        let failing = PartFailingDisplay(failure: failure)
        let writer = CatalogWriter(
            outputDirectory: output.path, displays: first ? [failing] + others : others + [failing])
        await #expect {
            try await writer.displayCatalog(viewModel: viewModel())
        } throws: { error in
            "\(error)".contains("disk full during \(failure)")
        }
        #expect(try ["index.html", "catalog.md", "collection.csv"].map { try output.read($0) } == before)
    }

    @Test func `a second run replaces the catalog, its folders included`() async throws {
        let output = try TemporaryFolder()
        let writer = CatalogWriter(
            outputDirectory: output.path, formats: CatalogFormat.allCases, templates: try TemplateLibrary())
        _ = try await writer.displayCatalog(viewModel: viewModel())
        _ = try await writer.displayCatalog(
            viewModel: viewModel(Seeds.response([ArtistSection(maker: "Solo", objects: [Seeds.object("S-1", "Solo")])]))
        )
        #expect(try output.read("collection.csv").split(separator: "\r\n").count == 2)
        #expect(try output.read("index.html").contains("data-artist=\"Solo\""))
        #expect(FileManager.default.fileExists(atPath: output.url.appendingPathComponent("assets/gallery.js").path))
    }
}

/// A display that fails after the CSV was staged.
private struct FailingDisplay: CatalogFileDisplay {
    var format: CatalogFormat { .html }

    func start(_ outline: CatalogViewModel, in folder: OutputFolder) throws(ExportError) -> any CatalogPartWriter {
        try folder.write("half", to: "index.html")
        throw ExportError(.output("disk full"))
    }
}

/// Where `PartFailingDisplay` fails.
enum PartFailure: Sendable {
    case write, finish
}

/// A Markdown display whose writer fails while writing a part, or at the end.
private struct PartFailingDisplay: CatalogFileDisplay {
    let failure: PartFailure
    var format: CatalogFormat { .markdown }

    func start(_ outline: CatalogViewModel, in folder: OutputFolder) throws(ExportError) -> any CatalogPartWriter {
        Writer(failure: failure)
    }

    final class Writer: CatalogPartWriter {
        let failure: PartFailure
        init(failure: PartFailure) { self.failure = failure }

        func write(_ part: CatalogPart) throws(ExportError) {
            if failure == .write { throw ExportError(.output("disk full during write")) }
        }

        func finish() throws(ExportError) {
            if failure == .finish { throw ExportError(.output("disk full during finish")) }
        }
    }
}

/// A writer with nothing left to write: for stand-in displays that write everything when they start.
final class FinishedWriter: CatalogPartWriter {
    func write(_ part: CatalogPart) {}
    func finish() {}
}
