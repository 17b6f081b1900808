import VitrineCore

/// Compiles Mustache templates (https://mustache.github.io/mustache.5.html) into `CompiledTemplate`s: variables
/// (`{{name}}`, `{{{name}}}`, `{{&name}}`, dotted names, `{{.}}`), sections and inverted sections, comments,
/// partials (inlined, with a standalone partial's indentation), set delimiters, and swift-mustache's
/// `{{% CONTENT_TYPE: MARKDOWN}}` pragma (also `HTML` and `TEXT`). Standalone tags take their whole line with
/// them, as the spec says. Lambdas, template inheritance (`{{<parent}}`, `{{$block}}`) and swift-mustache's
/// transforms (`{{lowercased(name)}}`) are refused with the file and line, rather than rendered blank.
struct MustacheCompiler {
    /// Template text by name (`html/card`), and what to call each in an error (its file).
    let sources: [String: String]
    let origins: [String: String]
    /// Names no model has, by template: a typo in a user's template renders blank, as in any Mustache.
    private(set) var unknownNames: [String: Set<String>] = [:]
    /// The partials the compiled templates include.
    private(set) var includedPartials: Set<String> = []

    init(sources: [String: String], origins: [String: String]) {
        self.sources = sources
        self.origins = origins
    }

    /// Partials nest at most this deep: a partial that includes itself is refused, not expanded forever.
    static let deepestPartial = 32

    mutating func compile(_ name: String) throws(ExportError) -> CompiledTemplate {
        CompiledTemplate(name: name, nodes: try nodes(of: name, escaping: .html, indentation: [], depth: 0))
    }

    private mutating func nodes(
        of name: String, escaping: TemplateEscaping, indentation: [UInt8], depth: Int
    ) throws(ExportError) -> [TemplateNode] {
        guard let text = sources[name] else { throw ExportError(.template("no template named \(name).mustache")) }
        var bytes = Array(text.utf8)
        if !indentation.isEmpty { bytes = Self.indent(bytes, by: indentation) }
        let file = origins[name] ?? "\(name).mustache"
        var parser = Parser(bytes: bytes, file: file, escaping: escaping)
        let nodes = try parser.parse { (partial, escaping, indentation) throws(ExportError) in
            guard depth < Self.deepestPartial else {
                throw ExportError(
                    .template(
                        "template \(file): partials nest deeper than \(Self.deepestPartial) (does \(partial) include itself?)"
                    ))
            }
            guard sources[partial] != nil else {
                throw ExportError(
                    .template("template \(file) includes \(partial), and there is no \(partial).mustache"))
            }
            includedPartials.insert(partial)
            return try self.nodes(of: partial, escaping: escaping, indentation: indentation, depth: depth + 1)
        }
        if !parser.unknownNames.isEmpty { unknownNames[name, default: []].formUnion(parser.unknownNames) }
        return nodes
    }

    /// A standalone partial's indentation before each of its lines (not after its last line break).
    private static func indent(_ bytes: [UInt8], by indentation: [UInt8]) -> [UInt8] {
        var result = indentation
        for (index, byte) in bytes.enumerated() {
            result.append(byte)
            if byte == UInt8(ascii: "\n"), index + 1 < bytes.count { result += indentation }
        }
        return result
    }

    /// One template's text, tag by tag.
    private struct Parser {
        let bytes: [UInt8]
        let file: String
        var escaping: TemplateEscaping
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)
        /// Names no model has.
        private(set) var unknownNames: Set<String> = []

        init(bytes: [UInt8], file: String, escaping: TemplateEscaping) {
            self.bytes = bytes
            self.file = file
            self.escaping = escaping
        }

        /// A section being read: its name, where it opened, and its nodes so far.
        private struct OpenSection {
            var name: String
            var path: TemplatePath
            var inverted: Bool
            var offset: Int
            var nodes: [TemplateNode] = []
        }

        mutating func parse(
            partial: (String, TemplateEscaping, [UInt8]) throws(ExportError) -> [TemplateNode]
        ) throws(ExportError) -> [TemplateNode] {
            var sections = [OpenSection(name: "", path: .current, inverted: false, offset: 0)]
            var pending: [UInt8] = []
            var position = 0

            func flush() {
                guard !pending.isEmpty else { return }
                Self.append(.text(pending), to: &sections[sections.count - 1].nodes)
                pending.removeAll(keepingCapacity: true)
            }

            while position < bytes.count {
                guard let tagStart = find(open, from: position) else {
                    pending += bytes[position...]
                    break
                }
                pending += bytes[position..<tagStart]
                let contentStart = tagStart + open.count
                let sigil = contentStart < bytes.count ? bytes[contentStart] : 0
                var content: ArraySlice<UInt8>
                var tagEnd: Int
                switch sigil {
                case UInt8(ascii: "{"):
                    guard let end = find([UInt8(ascii: "}")] + close, from: contentStart + 1) else {
                        throw failure("a {{{ tag is not closed", at: tagStart)
                    }
                    content = bytes[(contentStart + 1)..<end]
                    tagEnd = end + 1 + close.count
                case UInt8(ascii: "="):
                    guard let end = find([UInt8(ascii: "=")] + close, from: contentStart + 1) else {
                        throw failure("a {{= tag is not closed", at: tagStart)
                    }
                    content = bytes[(contentStart + 1)..<end]
                    tagEnd = end + 1 + close.count
                default:
                    guard let end = find(close, from: contentStart) else {
                        throw failure("a tag is not closed", at: tagStart)
                    }
                    content = bytes[contentStart..<end]
                    tagEnd = end + close.count
                    if Self.sigils.contains(sigil) { content = content.dropFirst() }
                }
                let name = String(decoding: content, as: UTF8.self).trimmingSpaces()

                // A section, comment, partial, delimiter or pragma tag alone on its line takes the line with it.
                var indentation: [UInt8] = []
                if Self.standaloneSigils.contains(sigil), let lineEnd = standaloneEnd(tagStart, tagEnd) {
                    var lineStart = tagStart
                    while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
                    indentation = Array(bytes[lineStart..<tagStart])
                    pending.removeLast(min(indentation.count, pending.count))
                    tagEnd = lineEnd
                }

                switch sigil {
                case UInt8(ascii: "!"):
                    break
                case UInt8(ascii: "="):
                    let parts = name.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    guard parts.count == 2, !parts[0].contains("="), !parts[1].contains("=") else {
                        throw failure("{{=\(name)=}} does not set two delimiters", at: tagStart)
                    }
                    open = Array(parts[0].utf8)
                    close = Array(parts[1].utf8)
                case UInt8(ascii: "%"):
                    try pragma(name, at: tagStart)
                case UInt8(ascii: "#"), UInt8(ascii: "^"):
                    flush()
                    sections.append(
                        OpenSection(
                            name: name, path: try path(name, at: tagStart),
                            inverted: sigil == UInt8(ascii: "^"), offset: tagStart))
                case UInt8(ascii: "/"):
                    flush()
                    guard sections.count > 1, let section = sections.last, section.name == name else {
                        let expected =
                            sections.count > 1 ? ", where {{/\(sections[sections.count - 1].name)}} was expected" : ""
                        throw failure("{{/\(name)}} closes no open section\(expected)", at: tagStart)
                    }
                    sections.removeLast()
                    let node: TemplateNode =
                        section.inverted
                        ? .inverted(section.path, section.nodes)
                        : .section(section.path, section.nodes, TemplateSection())
                    Self.append(node, to: &sections[sections.count - 1].nodes)
                case UInt8(ascii: ">"):
                    flush()
                    for node in try partial(name, escaping, indentation) {
                        Self.append(node, to: &sections[sections.count - 1].nodes)
                    }
                case UInt8(ascii: "<"), UInt8(ascii: "$"):
                    throw failure(
                        "template inheritance ({{\(Character(UnicodeScalar(sigil)))\(name)}}) is not supported",
                        at: tagStart)
                case UInt8(ascii: "&"), UInt8(ascii: "{"):
                    flush()
                    Self.append(.value(try path(name, at: tagStart), .none), to: &sections[sections.count - 1].nodes)
                default:
                    flush()
                    let escaping = escaping == .markdown && name.hasSuffix("URL") ? .markdownAddress : escaping
                    Self.append(.value(try path(name, at: tagStart), escaping), to: &sections[sections.count - 1].nodes)
                }
                position = tagEnd
            }
            flush()
            if sections.count > 1, let section = sections.last {
                throw failure("{{#\(section.name)}} is never closed", at: section.offset)
            }
            return sections[0].nodes
        }

        private static let sigils: Set<UInt8> = Set("#^/>!&%<$".utf8)
        private static let standaloneSigils: Set<UInt8> = Set("#^/>!=%<$".utf8)

        /// Where the line after a tag ends, when only spaces and tabs follow it up to the line break (or the
        /// end) and only spaces and tabs precede it back to the line's start.
        private func standaloneEnd(_ tagStart: Int, _ tagEnd: Int) -> Int? {
            var before = tagStart
            while before > 0, bytes[before - 1] == 0x20 || bytes[before - 1] == 0x09 { before -= 1 }
            guard before == 0 || bytes[before - 1] == 0x0A else { return nil }
            var after = tagEnd
            while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
            if after == bytes.count { return after }
            if bytes[after] == 0x0A { return after + 1 }
            if bytes[after] == 0x0D, after + 1 < bytes.count, bytes[after + 1] == 0x0A { return after + 2 }
            return nil
        }

        private mutating func pragma(_ text: String, at offset: Int) throws(ExportError) {
            let parts = text.split(separator: ":", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard parts.count == 2, parts[0] == "CONTENT_TYPE" else {
                throw failure("unknown pragma {{% \(text)}}", at: offset)
            }
            switch parts[1].uppercased() {
            case "HTML": escaping = .html
            case "MARKDOWN": escaping = .markdown
            case "TEXT": escaping = .none
            default: throw failure("unknown content type \(parts[1]) (HTML, MARKDOWN or TEXT)", at: offset)
            }
        }

        private mutating func path(_ name: String, at offset: Int) throws(ExportError) -> TemplatePath {
            if name == "." { return .current }
            if name.contains("(") {
                throw failure(
                    "{{\(name)}}: transforms are not supported; templates place values as they are", at: offset)
            }
            guard !name.isEmpty else { throw failure("a tag has no name", at: offset) }
            var keys: [TemplateKey] = []
            for part in name.split(separator: ".", omittingEmptySubsequences: false) {
                guard let key = TemplateKey(rawValue: String(part)) else {
                    unknownNames.insert(name)
                    return .missing(name)
                }
                keys.append(key)
            }
            return keys.count == 1 ? .key(keys[0]) : .dotted(keys)
        }

        private func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard let first = needle.first, start < bytes.count else { return nil }
            var index = start
            while index + needle.count <= bytes.count {
                if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }

        private func failure(_ message: String, at offset: Int) -> ExportError {
            let line = bytes[..<min(offset, bytes.count)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            return ExportError(.template("template \(file), line \(line): \(message)"))
        }

        /// Adjacent text becomes one node (partials and standalone lines leave many pieces).
        private static func append(_ node: TemplateNode, to nodes: inout [TemplateNode]) {
            if case .text(let more) = node, case .text(let text)? = nodes.last {
                nodes[nodes.count - 1] = .text(text + more)
            } else {
                nodes.append(node)
            }
        }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" })
        else { return "" }
        return String(scalars[first...last])
    }
}
