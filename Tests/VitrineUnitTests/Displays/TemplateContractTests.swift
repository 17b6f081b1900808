import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays

/// Every variable `Templates/README.md` documents for the catalog, its sections and their objects reaches a
/// user's own template, with a value: documentation and code cannot drift apart again (issue 15: a Markdown
/// template got blanks for `thumbnail2xURL`, `largeImageURL`, `pageName` and `sectionPageName`).
@Suite struct TemplateContractTests {
    /// The names in the first column of the README's table under `heading`.
    private static func documented(after heading: String) throws -> [String] {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Templates/README.md"),
            encoding: .utf8)
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

    @Test func `every documented catalog, section and object variable reaches a template with a value`() throws {
        let catalog = try Self.documented(after: "The root is the catalog:")
        let section = try Self.documented(after: "Each of `sections`:")
        let object = try Self.documented(after: "Each of `objects`:")
        #expect(catalog.count >= 7 && section.count >= 6 && object.count >= 18)

        // A probe template that prints every documented name, for the first section's first object.
        func probes(_ names: [String]) -> String {
            names.filter { $0 != "sections" && $0 != "objects" }.map { "[\($0)={{\($0)}}]" }.joined()
        }
        let probe =
            probes(catalog) + "{{#sections}}{{#isUnknownMaker}}{{/isUnknownMaker}}" + probes(section)
            + "{{#objects}}" + probes(object) + "{{/objects}}{{/sections}}"
        let folder = try TemporaryFolder()
        let markdown = folder.url.appendingPathComponent("markdown")
        try FileManager.default.createDirectory(at: markdown, withIntermediateDirectories: true)
        try Data(probe.utf8).write(to: markdown.appendingPathComponent("catalog.md.mustache"))
        let templates = try TemplateLibrary(directory: folder.path)

        // One known maker, one object with every field (an IIIF image: a 2× thumbnail and a large image).
        let full = ArtObject(
            id: "SK-C-5", title: "The Night Watch", maker: "Rembrandt van Rijn", date: "1642",
            image: ImageReference(
                url: "https://iiif.micr.io/PJEZO/full/max/0/default.jpg", width: 14_645, height: 12_158,
                sizing: .iiif(service: "https://iiif.micr.io/PJEZO", cachedWidths: [])),
            objectURL: "https://www.rijksmuseum.nl/en/collection/SK-C-5")
        let presenter = ExportPresenter(
            thumbnailWidth: 400, catalogDisplay: CatalogDisplayLogicSpy(), progressDisplay: CatalogDisplayLogicSpy())
        let viewModel = presenter.makeViewModel(
            response: Seeds.response([ArtistSection(maker: "Rembrandt van Rijn", objects: [full])]))
        let rendered = try templates.render("markdown/catalog.md", viewModel)

        for name in (catalog + section + object) where name != "sections" && name != "objects" {
            let value = rendered.firstMatch(of: try Regex("\\[\(name)=([^\\]]*)\\]"))?.output[1].substring
            #expect(value != nil, "\(name) is documented but not printed")
            #expect(value?.isEmpty == false, "\(name) is documented but reaches the template blank")
        }
    }
}
