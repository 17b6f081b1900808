import Foundation
import Mustache
import VitrineCore
import VitrineTemplates

/// The templates and assets a catalog is rendered with: the bundled ones, each replaced by the user's file of
/// the same name when `--templates DIR` is given (`DIR/html/index.html.mustache`, `DIR/html/style.css`).
package struct TemplateLibrary: Sendable {
    private let library: MustacheLibrary
    private let assets: [String: String]
    /// What every page rendered with this library is made from besides its context: the Vitrine version and
    /// the text of every template and asset (a changed partial changes every page).
    package let fingerprint: Fingerprint

    /// - parameter directory: the user's template folder, or `nil` for the bundled templates only.
    package init(directory: String? = nil) throws(ExportError) {
        MarkdownContentType.register()
        var texts = BundledTemplates.files
        if let directory {
            try Self.overlay(&texts, from: directory)
        }
        var library = MustacheLibrary()
        var assets: [String: String] = [:]
        var fingerprint = Fingerprint()
        fingerprint.combine(VitrineVersion.current)
        for (path, text) in texts.sorted(by: { $0.key < $1.key }) {
            fingerprint.combine(path)
            fingerprint.combine(text)
            guard path.hasSuffix(".mustache") else {
                assets[path] = text
                continue
            }
            let name = String(path.dropLast(".mustache".count))
            do {
                try library.register(text, named: name)
            } catch {
                throw ExportError(.template("template \(path) does not parse: \(Self.describe(error))"))
            }
        }
        self.library = library
        self.assets = assets
        self.fingerprint = fingerprint
    }

    /// Renders a page into the output folder, unless the file the last export made from the same templates and
    /// context is still there: then that file is kept and nothing is rendered.
    package func page(
        _ name: String, _ context: [String: Any], to path: String, in folder: OutputFolder
    ) throws(ExportError) {
        var made = fingerprint
        made.combine(name)
        made.combine(context: context)
        if folder.keep(path, fingerprint: made) { return }
        try folder.write(Data(render(name, context).utf8), to: path, fingerprint: made)
    }

    /// Renders a template (`html/index.html`) with a view model.
    package func render(_ name: String, _ object: Any) throws(ExportError) -> String {
        guard let text = library.render(object, withTemplate: name) else {
            throw ExportError(.template("no template named \(name).mustache"))
        }
        return text
    }

    /// An asset's text (`html/style.css`).
    package func asset(_ path: String) throws(ExportError) -> String {
        guard let text = assets[path] else { throw ExportError(.template("no asset named \(path)")) }
        return text
    }

    /// Replaces bundled files by the user's files of the same relative path; other files in the folder are
    /// added (a partial a template includes, say).
    private static func overlay(_ texts: inout [String: String], from directory: String) throws(ExportError) {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExportError(.template("--templates \(directory) is not a folder"))
        }
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return }
        for case let file as URL in walker {
            let path = file.standardizedFileURL.path
            guard path.hasPrefix(root.path + "/") else { continue }
            let relative = String(path.dropFirst(root.path.count + 1))
            guard relative.hasSuffix(".mustache") || relative.hasSuffix(".css") || relative.hasSuffix(".js") else {
                continue
            }
            do {
                texts[relative] = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw ExportError(.template("cannot read template \(path): \(error.localizedDescription)"))
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? MustacheTemplate.ParserError {
            return "\(error.error) at line \(error.context.lineNumber), column \(error.context.columnNumber)"
        }
        return String(describing: error)
    }
}
