import ArgumentParser
import Foundation
import VitrineCore

/// What to write, and where.
struct OutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Catalogs to write, comma-separated: html, markdown, csv, jsonl.", valueName: "list"))
    var format: FormatList = FormatList(CatalogFormat.defaults)

    @Option(help: ArgumentHelp("Folder the catalogs are written to.", valueName: "dir"))
    var output: String = "Output"

    @Option(help: ArgumentHelp("Folder of your own templates, replacing the bundled ones by name.", valueName: "dir"))
    var templates: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Thumbnail width in pixels.", valueName: "px"))
    var thumbnailWidth: Int = 400

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Cards on one page of an artist in the HTML gallery.", valueName: "n"))
    var cardsPerPage: Int = 200

    @Flag(help: "Replace files in the output folder that Vitrine did not write (they are named otherwise).")
    var force = false

    @Flag(
        help: ArgumentHelp(
            "Remove the catalogs of formats --format leaves out (a gallery an earlier export wrote, say); by default "
                + "they stay as they are."))
    var removeOtherFormats = false

    @Flag(
        help: ArgumentHelp(
            "Export only the objects whose rights open their image for reuse (public domain, CC0, CC BY, CC BY-SA); "
                + "the summary counts the rest."))
    var openAccessOnly = false

    @Option(
        help: ArgumentHelp(
            "The site's name on every page and in the Markdown catalog (default: the repository's own name, or the "
                + "institution's collection).",
            valueName: "text"))
    var siteTitle: String?

    @Option(
        help: ArgumentHelp(
            "One line on what the site is, under its title and in the index's description.", valueName: "text"))
    var siteDescription: String?

    @Option(
        help: ArgumentHelp(
            "The site's public address (https://…): adds canonical links, sitemap.xml, robots.txt and share previews.",
            valueName: "url"))
    var siteURL: String?

    @Option(help: ArgumentHelp("A picture (PNG, JPEG, SVG …) shown in every page's masthead.", valueName: "file"))
    var siteLogo: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors and the summary line.")
    var quiet = false

    @Flag(help: "Log every request (URLs with keys hidden).")
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Read settings from this file (default: vitrine.yaml or vitrine.json here, if there is one); flags win.",
            valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Also write the run's figures and how it ended (exit status, error) to this JSON file, for a scheduler.",
            valueName: "file"))
    var summaryJSON: String?

    func validate() throws {
        if !(16...4000).contains(thumbnailWidth) { throw ValidationError("--thumbnail-width must be 16…4000.") }
        if !(10...5_000).contains(cardsPerPage) { throw ValidationError("--cards-per-page must be 10…5000.") }
        if output.isEmpty { throw ValidationError("--output must name a folder.") }
        for (flag, value) in [("--site-title", siteTitle), ("--site-description", siteDescription)]
        where value?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true {
            throw ValidationError("\(flag) must not be empty.")
        }
        if let siteURL, let problem = SiteIdentity.siteURLProblem(siteURL) {
            throw ValidationError("--site-url \(siteURL): \(problem).")
        }
        if let siteLogo {
            let fileExtension = (siteLogo as NSString).pathExtension.lowercased()
            guard SiteIdentity.logoExtensions.contains(fileExtension) else {
                throw ValidationError(
                    "--site-logo must be a picture: "
                        + SiteIdentity.logoExtensions.sorted().map { ".\($0)" }.joined(separator: ", ") + ".")
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: siteLogo, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isReadableFile(atPath: siteLogo)
            else { throw ValidationError("--site-logo: cannot read the file \(siteLogo).") }
            if fileExtension == "svg", let data = FileManager.default.contents(atPath: siteLogo),
                let found = SiteIdentity.activeContent(inSVG: String(decoding: data, as: UTF8.self))
            {
                throw ValidationError(
                    "--site-logo \(siteLogo) holds active content (\(found)), which would run at the site's address when "
                        + "the logo is opened on its own: remove it, or give a PNG.")
            }
        }
        if summaryJSON?.isEmpty == true { throw ValidationError("--summary-json must name a file.") }
    }
}

/// `html,markdown,csv`: a comma-separated list of catalog formats, each once, in the order given.
struct FormatList: ExpressibleByArgument, Equatable {
    var formats: [CatalogFormat]

    init(_ formats: [CatalogFormat]) {
        self.formats = formats
    }

    init?(argument: String) {
        var formats: [CatalogFormat] = []
        for name in argument.split(separator: ",") {
            let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard let format = CatalogFormat(rawValue: trimmed == "md" ? "markdown" : trimmed) else { return nil }
            if !formats.contains(format) { formats.append(format) }
        }
        guard !formats.isEmpty else { return nil }
        self.formats = formats
    }

    var defaultValueDescription: String { formats.map(\.rawValue).joined(separator: ",") }
}
