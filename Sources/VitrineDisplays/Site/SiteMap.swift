import VitrineCore
import VitrineOutput

/// `sitemap.xml` for search engines, written as the pages are: one file of every page's address, or, past
/// `perFile` addresses, files of that many in `sitemaps/` and `sitemap.xml` as their index (the sitemap protocol's
/// limit is 50,000 addresses a file). `robots.txt` names it.
struct SiteMap: Sendable {
    static let perFile = 50_000

    let siteURL: String
    private var pending: [String] = []
    private var files = 0
    private let perFile: Int

    init(siteURL: String, perFile: Int = Self.perFile) {
        self.siteURL = siteURL
        self.perFile = perFile
    }

    /// Adds a page by its path from the site's top (`objects/sk-c-5.html`; `""` for the top itself).
    mutating func add(_ path: String, in folder: OutputFolder) throws(ExportError) {
        // A full file is written only when one more address comes: exactly `perFile` stay in `sitemap.xml`.
        if pending.count == perFile { try writePending(to: "sitemaps/sitemap-\(files + 1).xml", in: folder) }
        pending.append(path)
    }

    /// Writes what is pending and `sitemap.xml`, and `robots.txt`.
    mutating func finish(in folder: OutputFolder) throws(ExportError) {
        if files == 0 {
            try writePending(to: "sitemap.xml", in: folder)
        } else {
            if !pending.isEmpty { try writePending(to: "sitemaps/sitemap-\(files + 1).xml", in: folder) }
            var index = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            index += #"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
            for number in 1...files {
                index += "<sitemap><loc>\(Self.escaped(siteURL))sitemaps/sitemap-\(number).xml</loc></sitemap>\n"
            }
            index += "</sitemapindex>\n"
            try folder.write(index, to: "sitemap.xml")
        }
        try folder.write("User-agent: *\nAllow: /\n\nSitemap: \(siteURL)sitemap.xml\n", to: "robots.txt")
    }

    private mutating func writePending(to path: String, in folder: OutputFolder) throws(ExportError) {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text += #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        let site = Self.escaped(siteURL)
        for page in pending { text += "<url><loc>\(site)\(Self.escaped(page))</loc></url>\n" }
        text += "</urlset>\n"
        try folder.write(text, to: path)
        pending.removeAll(keepingCapacity: true)
        if path != "sitemap.xml" { files += 1 }
    }

    /// Text in an XML element: `&`, `<`, `>`, `'` and `"` as entities.
    static func escaped(_ text: String) -> String {
        guard text.contains(where: { "&<>'\"".contains($0) }) else { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "'": escaped += "&apos;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
