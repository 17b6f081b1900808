import Testing

@testable import VitrineCore
@testable import VitrineDisplays

/// The template compiler against the Mustache spec's rules (interpolation, sections, inverted sections,
/// comments, partials, delimiters, standalone lines) and against what it refuses.
@Suite struct MustacheCompilerTests {
    /// A model given as a table, for tests.
    struct Model: TemplateContext {
        var values: [TemplateKey: TemplateValue]
        func value(for key: TemplateKey) -> TemplateValue? { values[key] }
    }

    private func render(
        _ template: String, _ model: Model, partials: [String: String] = [:]
    ) throws(ExportError) -> String {
        var sources = partials
        sources["page"] = template
        var compiler = MustacheCompiler(sources: sources, origins: [:])
        var output = RenderedBytes()
        try compiler.compile("page").render(model, into: &output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    private func failure(_ template: String, partials: [String: String] = [:]) -> String? {
        do {
            _ = try render(template, Model(values: [:]), partials: partials)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func `values are HTML-escaped unless tripled or ampersanded, numbers and flags print`() throws {
        let model = Model(values: [
            .title: .text(#"<b>"Tom" & 'Jerry'</b>"#), .number: .number(-12), .current: .flag(true),
        ])
        #expect(try render("{{title}}", model) == "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;")
        #expect(try render("{{{title}}}|{{& title }}", model) == #"<b>"Tom" & 'Jerry'</b>|<b>"Tom" & 'Jerry'</b>"#)
        #expect(try render("{{number}} {{current}} [{{missing}}] [{{label}}]", model) == "-12 true [] []")
    }

    @Test func `standalone tags take their line; inline tags leave it`() throws {
        let on = Model(values: [.inline: .flag(true)])
        let off = Model(values: [.inline: .flag(false)])
        let template = "a\n  {{#inline}}  \nb\n{{/inline}}\n{{! a comment }}\nc\n"
        #expect(try render(template, on) == "a\nb\nc\n")
        #expect(try render(template, off) == "a\nc\n")
        #expect(try render("a\r\n{{#inline}}\r\nb\r\n{{/inline}}\r\n", on) == "a\r\nb\r\n")
        #expect(try render("x {{#inline}}y{{/inline}}\n", on) == "x y\n")
        #expect(try render("{{#inline}}{{/inline}}\n", on) == "\n", "two tags on a line are not standalone")
        #expect(try render("{{^inline}}\nno\n{{/inline}}", off) == "no\n")
    }

    @Test func `sections iterate lists, enter contexts, and names are found from the innermost context out`() throws {
        let cards: [any TemplateContext] = [
            Model(values: [.title: .text("One")]), Model(values: [.title: .text("Two"), .root: .text("../")]),
        ]
        let model = Model(values: [
            .root: .text("/"), .cards: .list(cards), .next: .context(Model(values: [.title: .text("Next")])),
            .previous: .text("p.html"), .pages: .list([]),
        ])
        #expect(try render("{{#cards}}{{root}}{{title}};{{/cards}}", model) == "/One;../Two;")
        #expect(
            try render("{{#next}}{{title}} {{root}}{{/next}}|{{next.title}}|{{next.root}}", model) == "Next /|Next|")
        #expect(try render("{{#previous}}<a href=\"{{.}}\">{{/previous}}", model) == "<a href=\"p.html\">")
        #expect(try render("{{#pages}}x{{/pages}}{{^pages}}none{{/pages}}{{^cards}}none{{/cards}}", model) == "none")
    }

    @Test func `a list made one element at a time renders as the same list would, and empty as none`() throws {
        let titles = ["One", "Two", "Three"]
        let made = Locked(0)
        let lazy = Model(values: [
            .root: .text("/"),
            .cards: .items(count: titles.count) { index in
                made.withLock { $0 += 1 }
                return Model(values: [.title: .text(titles[index])])
            },
            .pages: .items(count: 0) { _ in Model(values: [:]) },
        ])
        let eager = Model(values: [
            .root: .text("/"), .cards: .list(titles.map { Model(values: [.title: .text($0)]) }), .pages: .list([]),
        ])
        let template =
            "{{#cards}}{{root}}{{title}};{{/cards}}{{^cards}}none{{/cards}}|{{cards}}|"
            + "{{#pages}}x{{/pages}}{{^pages}}no pages{{/pages}}"
        #expect(try render(template, lazy) == "/One;/Two;/Three;||no pages")
        #expect(try render(template, lazy) == render(template, eager))
        #expect(made.current == 6, "each element is made once per rendering")
    }

    @Test func `partials are inlined, a standalone one indented line by line`() throws {
        let model = Model(values: [.title: .text("T")])
        let partials = ["card": "<li>\n{{title}}\n</li>\n"]
        #expect(
            try render("<ul>\n  {{> card}}\n</ul>\n", model, partials: partials)
                == "<ul>\n  <li>\n  T\n  </li>\n</ul>\n")
        #expect(try render("[{{>card}}]", model, partials: partials) == "[<li>\nT\n</li>\n]")
    }

    @Test func `delimiters can be changed, and Markdown or text content types change the escaping`() throws {
        let model = Model(values: [.title: .text("*A* <b>")])
        #expect(
            try render("{{=<% %>=}}\n<% title %> {{title}} <%={{ }}=%>{{title}}", model)
                == "*A* &lt;b&gt; {{title}} *A* &lt;b&gt;")
        #expect(try render("{{% CONTENT_TYPE: MARKDOWN}}\n- {{title}}\n", model) == "- \\*A\\* \\<b\\>\n")
        #expect(try render("{{% CONTENT_TYPE: TEXT}}{{title}}", model) == "*A* <b>")
        #expect(
            try render("{{% CONTENT_TYPE: MARKDOWN}}\n{{> part}}", model, partials: ["part": "{{title}}"])
                == "\\*A\\* \\<b\\>",
            "a partial is escaped as the page that includes it")
    }

    @Test func `names no model has are reported by template`() throws {
        var compiler = MustacheCompiler(sources: ["page": "{{titel}}{{#objets}}{{/objets}}{{title}}"], origins: [:])
        _ = try compiler.compile("page")
        #expect(compiler.unknownNames == ["page": ["titel", "objets"]])
    }

    @Test func `what cannot be compiled is named with its file and line`() {
        #expect(failure("a\n{{#cards}}\nb") == "template page.mustache, line 2: {{#cards}} is never closed")
        #expect(
            failure("{{#cards}}\n{{/pages}}")
                == "template page.mustache, line 2: {{/pages}} closes no open section, where {{/cards}} was expected")
        #expect(failure("x\n\n{{title") == "template page.mustache, line 3: a tag is not closed")
        #expect(failure("{{lowercased(title)}}")?.contains("transforms are not supported") == true)
        #expect(failure("{{<parent}}{{/parent}}")?.contains("template inheritance") == true)
        #expect(failure("{{> nowhere}}") == "template page.mustache includes nowhere, and there is no nowhere.mustache")
        #expect(failure("{{> loop}}", partials: ["loop": "{{> loop}}"])?.contains("nest deeper than") == true)
        #expect(failure("{{% CONTENT_TYPE: YAML}}")?.contains("unknown content type YAML") == true)
        #expect(failure("{{=<%=}}")?.contains("does not set two delimiters") == true)
    }
}
