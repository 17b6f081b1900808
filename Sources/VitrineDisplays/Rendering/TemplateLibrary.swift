import Foundation
import VitrineCore
import VitrineOutput
import VitrineTemplates

/// The templates and assets a catalog is rendered with: the bundled ones, each replaced by the user's file of
/// the same name when `--templates DIR` is given (`DIR/html/index.html.mustache`, `DIR/html/style.css`).
package struct TemplateLibrary: Sendable {
    private let templates: [String: CompiledTemplate]
    private let assets: [String: String]
    /// What every page rendered with this library is made from besides its context: the build of Vitrine that
    /// renders it (`BuildIdentity`) and the text of every template and asset (a changed partial changes every page).
    package let fingerprint: Fingerprint
    /// What the user should fix in `--templates`: a file that replaces nothing and is included by nothing, a name
    /// no page has; each with the likeliest meant name.
    package let warnings: [String]

    /// - parameter directory: the user's template folder, or `nil` for the bundled templates only.
    /// - parameter build: what tells this build of Vitrine from others (tests stand in another).
    package init(directory: String? = nil, build: Fingerprint = BuildIdentity.current) throws(ExportError) {
        var texts = BundledTemplates.files
        var origins: [String: String] = [:]
        var userFiles: [String] = []
        if let directory {
            userFiles = try Self.overlay(&texts, origins: &origins, from: directory)
        }
        var assets: [String: String] = [:]
        var sources: [String: String] = [:]
        var fingerprint = build
        for (path, text) in texts.sorted(by: { $0.key < $1.key }) {
            fingerprint.combine(path)
            fingerprint.combine(text)
            guard path.hasSuffix(".mustache") else {
                assets[path] = text
                continue
            }
            let name = String(path.dropLast(".mustache".count))
            sources[name] = text
            origins[name] = origins[path] ?? "\(path) (bundled)"
        }
        var compiler = MustacheCompiler(sources: sources, origins: origins)
        var templates: [String: CompiledTemplate] = [:]
        for name in sources.keys.sorted() {
            templates[name] = try compiler.compile(name)
        }
        self.templates = templates
        self.assets = assets
        self.fingerprint = fingerprint
        warnings = Self.warnings(
            userFiles: userFiles, directory: directory ?? "", includedPartials: compiler.includedPartials,
            unknownNames: compiler.unknownNames.mapValues { $0.sorted() })
    }

    /// Renders a page into the output folder, unless the file the last export made from the same templates and
    /// values is still there: then that file is kept and nothing is rendered. For the few pages whose model gives
    /// no inputs (the index, the letter pages): whether they changed is asked by walking their template's values.
    package func page(
        _ name: String, _ context: some TemplateContext, to path: String, in folder: OutputFolder
    ) throws(ExportError) {
        let template = try self.template(name)
        let made = walkSeed(name)
        if folder.mayKeep(path) {
            var values = RenderedFingerprint(fingerprint: made)
            template.render(context, into: &values)
            if folder.keep(path, fingerprint: values.fingerprint) { return }
        }
        // One walk renders the page and works out its fingerprint for the next export.
        var output = RenderedPage(fingerprint: made)
        template.render(context, into: &output)
        try folder.write(output.page.bytes, to: path, fingerprint: output.values.fingerprint)
    }

    /// `page`, for a file too big to hold whole (a letter of a million-object Markdown catalog): written a megabyte
    /// at a time as it is rendered, its fingerprint worked out as it is written; the last export's file is kept
    /// instead when it was made from the same. Asking first would walk the template twice for every file that
    /// changed, which in a night is every letter of the catalog. Returns where the rendered page's fragments are,
    /// and what it was made from and its size.
    package func largePage(
        _ name: String, _ context: some TemplateContext, to path: String, in folder: OutputFolder
    ) throws(ExportError) -> (fragments: [RenderedFragment], made: OutputManifest.Made) {
        let template = try self.template(name)
        // Its fingerprint is what it is rendered from, worked out as it is rendered: its bytes are not hashed.
        let pieces = try folder.startPieces(to: path, hashingBytes: false)
        var output = RenderedPage(fingerprint: walkSeed(name), pieces: pieces)
        template.render(context, into: &output)
        output.flush()
        let fingerprint = output.values.fingerprint
        try folder.finish(pieces, at: path, fingerprint: fingerprint, keepingSame: true)
        return (output.page.fragments, OutputManifest.Made(fingerprint: fingerprint, size: pieces.size))
    }

    /// What the pages of template `name` are made from, to ask `OutputFolder.keep` before rendering one.
    package func inputs(_ name: String) throws(ExportError) -> PageInputs {
        var seed = walkSeed(name)
        seed.combine(byte: 0xEE)
        return PageInputs(seed: seed, template: try template(name))
    }

    /// Every name template `name`'s sections over `list` ask for (`CompiledTemplate.keys(inSectionsOver:)`).
    package func keys(_ name: String, inSectionsOver list: TemplateKey) throws(ExportError) -> [TemplateKey] {
        try template(name).keys(inSectionsOver: list)
    }

    /// Where the fingerprint of a page of template `name` made from the walk of its values starts.
    private func walkSeed(_ name: String) -> Fingerprint {
        var made = fingerprint
        made.combine(name)
        return made
    }

    /// Where the keys of the fragments of template `name`'s lists start (`TemplateFragments`): what every page of
    /// these templates is made from, and the template's name.
    func fragmentSeed(_ name: String) -> Fingerprint {
        var seed = walkSeed(name)
        seed.combine(byte: 0xF7)
        return seed
    }

    /// Renders a page that was not kept, whose fingerprint the caller worked out (`inputs(name)`) to ask
    /// `OutputFolder.keep` first. Returns where its fragments are, and its size.
    @discardableResult
    package func render(
        _ name: String, _ context: some TemplateContext, to path: String, in folder: OutputFolder,
        inputs: Fingerprint
    ) throws(ExportError) -> (fragments: [RenderedFragment], size: Int) {
        try Self.write(template(name), context, to: path, in: folder, inputs: inputs)
    }

    /// Renders a page made from its model's inputs, `inputs` its fingerprint, into the output folder.
    @discardableResult
    private static func write(
        _ template: CompiledTemplate, _ context: some TemplateContext, to path: String, in folder: OutputFolder,
        inputs: Fingerprint
    ) throws(ExportError) -> (fragments: [RenderedFragment], size: Int) {
        var output = RenderedBytes()
        template.render(context, into: &output)
        try folder.write(output.bytes, to: path, fingerprint: inputs)
        return (output.fragments, output.bytes.count)
    }

    /// Renders a template (`html/index.html`) with a typed model, as bytes.
    package func render(_ name: String, _ context: some TemplateContext) throws(ExportError) -> [UInt8] {
        var output = RenderedBytes()
        try template(name).render(context, into: &output)
        return output.bytes
    }

    private func template(_ name: String) throws(ExportError) -> CompiledTemplate {
        guard let template = templates[name] else { throw ExportError(.template("no template named \(name).mustache")) }
        return template
    }

    /// An asset's text (`html/style.css`).
    package func asset(_ path: String) throws(ExportError) -> String {
        guard let text = assets[path] else { throw ExportError(.template("no asset named \(path)")) }
        return text
    }

    /// Replaces bundled files by the user's files of the same relative path; other files in the folder are
    /// added (a partial a template includes, say).
    /// - returns: the relative paths of the user's files.
    private static func overlay(
        _ texts: inout [String: String], origins: inout [String: String], from directory: String
    ) throws(ExportError) -> [String] {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExportError(.configuration("--templates \(directory) is not a folder"))
        }
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var files: [String] = []
        for case let file as URL in walker {
            let path = file.standardizedFileURL.path
            guard path.hasPrefix(root.path + "/") else { continue }
            let relative = String(path.dropFirst(root.path.count + 1))
            guard [".mustache", ".css", ".js", ".svg"].contains(where: relative.hasSuffix) else { continue }
            do {
                texts[relative] = try String(contentsOf: file, encoding: .utf8)
                origins[relative] = path
                files.append(relative)
            } catch {
                throw ExportError(.template("cannot read template \(path): \(OutputFolder.reason(error, path: path))"))
            }
        }
        return files.sorted()
    }
}

/// What the pages of one template are made from: the library and the template (`seed`), and every value the page's
/// model gives for a name the template asks for (`Fingerprint.combine(model:keys:)`). A value added to a model is in
/// the fingerprint of every page that shows it, with nothing else to keep in step.
package struct PageInputs: Sendable {
    let seed: Fingerprint
    let keys: [TemplateKey]

    init(seed: Fingerprint, template: CompiledTemplate) {
        self.seed = seed
        keys = template.keys
    }

    func callAsFunction(_ model: some TemplateContext) -> Fingerprint {
        var inputs = seed
        inputs.combine(model: model, keys: keys)
        return inputs
    }
}
