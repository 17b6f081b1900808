import Foundation
import Testing

@testable import VitrineCore
@testable import VitrineDisplays

/// The template compiler against the official Mustache spec (https://github.com/mustache/spec): every case of
/// its comments, delimiters, interpolation, inverted, partials and sections files, rendered as the spec says.
///
/// The spec comes with Debian's `r-cran-whisker` (`.ci/run` unpacks it and sets `MUSTACHE_SPEC`); without it the
/// cases are not run. Vitrine's templates ask for names it knows (`TemplateKey`), so each case's names are given
/// keys of their own, in its data and inside its tags alike, before it is compiled. Lambdas are not supported.
@Suite struct MustacheSpecTests {
    /// Where the spec's JSON files are: `MUSTACHE_SPEC`, else where Debian's package puts them.
    static let directory: String? = {
        let candidates = [
            ProcessInfo.processInfo.environment["MUSTACHE_SPEC"], "/usr/lib/R/site-library/whisker/specs",
        ]
        return candidates.compactMap { $0 }.first {
            FileManager.default.fileExists(atPath: $0 + "/interpolation.json")
        }
    }()

    static let files = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]

    /// Cases whose expected output Vitrine does not give, and why: each is checked to still differ.
    static let knownDifferences: [String: String] = [
        "sections: Implicit Iterator - String": "lists hold contexts, never bare values",
        "sections: Implicit Iterator - Integer": "lists hold contexts, never bare values",
        "sections: Implicit Iterator - Decimal": "lists hold contexts, never bare values",
        "partials: Recursion": "partials are inlined as a template is compiled: one that includes itself is refused",
    ]

    static let cases: [SpecCase] = {
        guard let directory else { return [] }
        return files.flatMap { file -> [SpecCase] in
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(file).json"),
                let spec = try? JSONDecoder().decode(SpecFile.self, from: data)
            else { return [] }
            return spec.tests.map { SpecCase(file: file, test: $0) }
        }
    }()

    /// CI unpacks the spec: there, every file must have been read.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MUSTACHE_SPEC"] != nil))
    func `the spec's files are all read`() {
        #expect(Set(Self.cases.map(\.file)) == Set(Self.files))
        #expect(Self.cases.count > 100)
    }

    @Test(arguments: cases)
    func `renders as the spec says`(_ specCase: SpecCase) {
        let output: String
        do {
            output = try specCase.render()
        } catch {
            output = "refused: \(error)"
        }
        if let reason = Self.knownDifferences[specCase.id] {
            withKnownIssue(Comment(rawValue: reason)) {
                #expect(output == specCase.test.expected)
            }
        } else {
            #expect(output == specCase.test.expected, "\(specCase.test.desc)")
        }
    }
}

/// One of the spec's files.
struct SpecFile: Decodable {
    struct Test: Decodable, Sendable {
        let name: String
        let desc: String
        let data: SpecValue
        let template: String
        let expected: String
        let partials: [String: String]?
    }

    let tests: [Test]
}

/// A value of a case's data, as JSON gives it.
indirect enum SpecValue: Decodable, Sendable {
    case null, flag(Bool), integer(Int), decimal(Double), text(String), list([SpecValue])
    case object([String: SpecValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let decimal = try? container.decode(Double.self) {
            self = .decimal(decimal)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let list = try? container.decode([SpecValue].self) {
            self = .list(list)
        } else {
            self = .object(try container.decode([String: SpecValue].self))
        }
    }

    /// Every name the value's objects use, nested ones too.
    var names: Set<String> {
        switch self {
        case .object(let values): values.reduce(into: Set(values.keys)) { $0.formUnion($1.value.names) }
        case .list(let values): values.reduce(into: []) { $0.formUnion($1.names) }
        default: []
        }
    }
}

/// A case of the spec, with its names given `TemplateKey`s.
struct SpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let test: SpecFile.Test

    var id: String { "\(file): \(test.name)" }
    var testDescription: String { id }

    /// A model made from the case's data: objects are contexts, lists are lists of contexts, `null` is absent.
    struct Model: TemplateContext {
        let values: [TemplateKey: TemplateValue]
        func value(for key: TemplateKey) -> TemplateValue? { values[key] }
    }

    func render() throws(ExportError) -> String {
        var names: Set<String> = test.data.names
        for text in [test.template] + (test.partials ?? [:]).values.sorted() {
            _ = Self.renamingTags(text) { name in
                names.insert(name)
                return name
            }
        }
        let keys = Dictionary(
            uniqueKeysWithValues: zip(names.sorted(), TemplateKey.allCases).map { ($0, $1) })
        let rename: (String) -> String = { keys[$0]?.rawValue ?? $0 }
        var sources = (test.partials ?? [:]).mapValues { Self.renamingTags($0, rename) }
        sources["spec-case"] = Self.renamingTags(test.template, rename)
        var compiler = MustacheCompiler(sources: sources, origins: [:])
        var output = RenderedBytes()
        let root: any TemplateContext =
            if case .context(let model) = Self.value(test.data, keys) { model } else { Model(values: [:]) }
        try compiler.compile("spec-case").render(root, into: &output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    private static func value(_ value: SpecValue, _ keys: [String: TemplateKey]) -> TemplateValue? {
        switch value {
        case .null: nil
        case .flag(let flag): .flag(flag)
        case .integer(let number): .number(number)
        case .decimal(let number): .text("\(number)")
        case .text(let text): .text(text)
        case .list(let values):
            .list(
                values.map { element in
                    if case .context(let model)? = Self.value(element, keys) { model } else { Model(values: [:]) }
                })
        case .object(let values):
            .context(
                Model(
                    values: Dictionary(
                        uniqueKeysWithValues: values.compactMap { name, value in
                            guard let key = keys[name], let converted = Self.value(value, keys) else { return nil }
                            return (key, converted)
                        })))
        }
    }

    /// `template` with each name inside its tags (each part of a dotted name) passed through `rename`, following
    /// `{{=<% %>=}}` as the compiler does; comments, partial names and everything outside tags stay as they are.
    static func renamingTags(_ template: String, _ rename: (String) -> String) -> String {
        var (open, close) = ("{{", "}}")
        var result = ""
        var rest = template[...]
        while let start = rest.range(of: open) {
            result += rest[..<start.lowerBound]
            let afterOpen = rest[start.upperBound...]
            let triple = open == "{{" && afterOpen.hasPrefix("{")
            guard let end = afterOpen.range(of: triple ? "}" + close : close) else { break }
            var content = String(afterOpen[..<end.lowerBound])
            switch content.first {
            case "!", ">":
                break
            case "=":
                // Written back as it is; the tags after it are read with its delimiters.
                result += rest[start.lowerBound..<end.upperBound]
                let delimiters = content.dropFirst().dropLast().split(separator: " ")
                if delimiters.count == 2 { (open, close) = (String(delimiters[0]), String(delimiters[1])) }
                rest = afterOpen[end.upperBound...]
                continue
            case "#", "^", "/", "&", "{":
                content = String(content.prefix(1)) + renamed(content.dropFirst(), rename)
            default:
                content = renamed(content[...], rename)
            }
            result += open + content + (triple ? "}" : "") + close
            rest = afterOpen[end.upperBound...]
        }
        return result + rest
    }

    /// A tag's name, its spaces kept, each part of a dotted name renamed.
    private static func renamed(_ tag: Substring, _ rename: (String) -> String) -> String {
        let name = tag.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name != "." else { return String(tag) }
        let lead = tag.prefix { $0 == " " || $0 == "\t" }
        let trail = tag.reversed().prefix { $0 == " " || $0 == "\t" }
        return lead
            + name.split(separator: ".", omittingEmptySubsequences: false).map { rename(String($0)) }
            .joined(separator: ".") + String(trail)
    }
}
