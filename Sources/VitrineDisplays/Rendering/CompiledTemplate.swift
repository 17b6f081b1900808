import VitrineCore

/// A Mustache template compiled once: its text as bytes, its names resolved to `TemplateKey`s, its partials
/// inlined, its escaping fixed per value. Rendering walks these nodes against typed contexts and appends bytes.
package struct CompiledTemplate: Sendable {
    package let name: String
    let nodes: [TemplateNode]
    /// Every name the template asks for anywhere, dotted paths' later names too, in `TemplateKey` order: what a
    /// page's fingerprint is made of (`Fingerprint.combine(model:keys:)`).
    let keys: [TemplateKey]

    /// The template's nodes, each section numbered in order and given the names its body asks for.
    init(name: String, nodes: [TemplateNode]) {
        self.name = name
        var ordinal = 0
        self.nodes = Self.numbered(nodes, next: &ordinal)
        keys = Self.ordered(Self.names(in: self.nodes))
    }

    /// Every name the bodies of the template's sections over `list` ask for (`{{#cards}}…{{/cards}}`), in
    /// `TemplateKey` order: what the key of each of its elements is made of.
    func keys(inSectionsOver list: TemplateKey) -> [TemplateKey] {
        func collect(_ nodes: [TemplateNode]) -> Set<TemplateKey> {
            nodes.reduce(into: []) { names, node in
                switch node {
                case .section(let path, let body, let section):
                    if path.keys.first == list { names.formUnion(section.names) }
                    names.formUnion(collect(body))
                case .inverted(_, let body):
                    names.formUnion(collect(body))
                case .text, .value:
                    break
                }
            }
        }
        return Self.ordered(collect(nodes))
    }

    /// Names in `TemplateKey` order, so a fingerprint made from them is the same on every run.
    static func ordered(_ names: Set<TemplateKey>) -> [TemplateKey] {
        TemplateKey.allCases.filter(names.contains)
    }

    private static func numbered(_ nodes: [TemplateNode], next ordinal: inout Int) -> [TemplateNode] {
        nodes.map { node in
            switch node {
            case .section(let path, let body, _):
                let section = TemplateSection(ordinal: ordinal)
                ordinal += 1
                let body = numbered(body, next: &ordinal)
                let names = names(in: body)
                return .section(
                    path, body, TemplateSection(ordinal: section.ordinal, names: names, keys: ordered(names)))
            case .inverted(let path, let body):
                return .inverted(path, numbered(body, next: &ordinal))
            case .text, .value:
                return node
            }
        }
    }

    /// Every name the nodes ask for (each of a dotted path's), sections inside them included.
    private static func names(in nodes: [TemplateNode]) -> Set<TemplateKey> {
        var names: Set<TemplateKey> = []
        for node in nodes {
            switch node {
            case .text: break
            case .value(let path, _):
                names.formUnion(path.keys)
            case .section(let path, _, let section):
                names.formUnion(path.keys)
                names.formUnion(section.names)
            case .inverted(let path, let body):
                names.formUnion(path.keys)
                names.formUnion(Self.names(in: body))
            }
        }
        return names
    }
}

/// What the renderer knows of a section besides its path and body: its place among the template's sections (two
/// sections over one list render different fragments), and every name its body asks for (a list's fragments are
/// copied only when the list's elements answer every one of them themselves).
struct TemplateSection: Sendable {
    var ordinal = 0
    var names: Set<TemplateKey> = []
    /// `names` in `TemplateKey` order: what a fragment's key is made of.
    var keys: [TemplateKey] = []
}

/// How a value is escaped where it is placed.
enum TemplateEscaping: Sendable {
    /// `&<>"'` as entities: the default, for HTML.
    case html
    /// Backslashes before Markdown and HTML punctuation, line breaks as spaces (`{{% CONTENT_TYPE: MARKDOWN}}`).
    case markdown
    /// A web address in Markdown (a value whose name ends in `URL`): a link's or a picture's destination, escaped
    /// as `markdown` but left whole where GitHub links a bare address in text.
    case markdownAddress
    /// As it is: `{{{triple}}}`, `{{&name}}`, or `{{% CONTENT_TYPE: TEXT}}`.
    case none
}

/// A name in a template: `.` (the current context), one key, a dotted path (`next.title`), or a name no model has.
enum TemplatePath: Sendable, Equatable {
    case current
    case key(TemplateKey)
    case dotted([TemplateKey])
    case missing(String)

    /// Every name in the path.
    var keys: [TemplateKey] {
        switch self {
        case .key(let key): [key]
        case .dotted(let keys): keys
        case .current, .missing: []
        }
    }
}

indirect enum TemplateNode: Sendable {
    case text([UInt8])
    case value(TemplatePath, TemplateEscaping)
    case section(TemplatePath, [TemplateNode], TemplateSection)
    case inverted(TemplatePath, [TemplateNode])
}

/// Where rendered output goes: bytes for a file, or a fingerprint of everything the output depends on.
protocol TemplateOutput {
    mutating func append(text: [UInt8])
    mutating func append(_ text: String, escaping: TemplateEscaping)
    mutating func append(number: Int)
    /// A section was rendered this many times (0 when skipped): all that decides which template text appears.
    mutating func section(_ count: Int)
    /// A list element's rendering starts, which `key` says everything of (`TemplateFragments`); `endFragment` ends
    /// it.
    mutating func startFragment(_ key: Fingerprint)
    mutating func endFragment(_ key: Fingerprint)
    /// A list element's rendering from the last run, copied: the same bytes that rendering it again would give.
    mutating func append(fragment: UnsafeRawBufferPointer, key: Fingerprint)
}

extension CompiledTemplate {
    /// Renders with a typed model at the bottom of the context stack.
    func render<Output: TemplateOutput>(_ context: any TemplateContext, into output: inout Output) {
        var renderer = TemplateRenderer(stack: [.context(context)])
        renderer.render(nodes, into: &output)
    }
}

/// Walks nodes, keeping the Mustache context stack: a section over a list pushes each element, a section over
/// a context pushes it, a flag pushes nothing.
private struct TemplateRenderer {
    var stack: [TemplateValue]

    mutating func render<Output: TemplateOutput>(_ nodes: [TemplateNode], into output: inout Output) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                output.append(text: bytes)
            case .value(let path, let escaping):
                switch lookUp(path) {
                case .text(let text): output.append(text, escaping: escaping)
                case .number(let number): output.append(number: number)
                case .flag(let flag): output.append(flag ? "true" : "false", escaping: .none)
                case .context, .list, .items, .fragments, nil: output.section(0)
                }
            case .section(let path, let body, let section):
                switch lookUp(path) {
                case .list(let elements):
                    output.section(elements.count)
                    for element in elements {
                        stack.append(.context(element))
                        render(body, into: &output)
                        stack.removeLast()
                    }
                case .items(let count, let element):
                    output.section(count)
                    for index in 0..<count {
                        stack.append(.context(element(index)))
                        render(body, into: &output)
                        stack.removeLast()
                    }
                case .fragments(let list):
                    render(list, body, section, into: &output)
                case .flag(let flag):
                    output.section(flag ? 1 : 0)
                    if flag { render(body, into: &output) }
                case .some(let value):
                    output.section(1)
                    stack.append(value)
                    render(body, into: &output)
                    stack.removeLast()
                case nil:
                    output.section(0)
                }
            case .inverted(let path, let body):
                let empty: Bool =
                    switch lookUp(path) {
                    case .list(let elements): elements.isEmpty
                    case .items(let count, _): count == 0
                    case .fragments(let list): list.count == 0
                    case .flag(let flag): !flag
                    case .some: false
                    case nil: true
                    }
                output.section(empty ? 1 : 0)
                if empty { render(body, into: &output) }
            }
        }
    }

    /// A list of fragments: each element copied from the last run when its key is known there, else rendered and
    /// marked as a fragment. A body that asks for a name the elements do not all answer themselves is rendered
    /// element by element with no fragments: the element's key would not say everything it shows.
    private mutating func render<Output: TemplateOutput>(
        _ list: TemplateFragments, _ body: [TemplateNode], _ section: TemplateSection, into output: inout Output
    ) {
        output.section(list.count)
        let safe = section.names.isSubset(of: list.ownNames)
        for index in 0..<list.count {
            guard safe else {
                stack.append(.context(list.element(index)))
                render(body, into: &output)
                stack.removeLast()
                continue
            }
            var key = list.key(index, section.keys)
            key.combine(section.ordinal)
            if let known = list.known, known.copy(key, into: &output) { continue }
            output.startFragment(key)
            stack.append(.context(list.element(index)))
            render(body, into: &output)
            stack.removeLast()
            output.endFragment(key)
        }
    }

    /// The first context, from the innermost out, that has the path's first key; the rest of a dotted path
    /// is looked up inside that value only.
    private func lookUp(_ path: TemplatePath) -> TemplateValue? {
        switch path {
        case .current:
            return stack.last
        case .key(let key):
            return find(key)
        case .dotted(let keys):
            guard let first = keys.first, var value = find(first) else { return nil }
            for key in keys.dropFirst() {
                guard case .context(let context) = value, let next = context.value(for: key) else { return nil }
                value = next
            }
            return value
        case .missing:
            return nil
        }
    }

    private func find(_ key: TemplateKey) -> TemplateValue? {
        var index = stack.count - 1
        while index >= 0 {
            if case .context(let context) = stack[index], let value = context.value(for: key) { return value }
            index -= 1
        }
        return nil
    }
}
