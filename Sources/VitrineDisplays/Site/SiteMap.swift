import VitrineCore
import VitrineOutput

/// `sitemap.xml` for search engines, written as the pages are: one file of every page's address, or, past
/// `perFile` addresses, files of that many in `sitemaps/` and `sitemap.xml` as their index (the sitemap protocol's
/// limit is 50,000 addresses a file). `robots.txt` names it when the site is at the top of its host.
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

    /// Writes what is pending and `sitemap.xml`, and `robots.txt` at the top of a host.
    mutating func finish(in folder: OutputFolder) throws(ExportError) {
        if files == 0 {
            try writePending(to: "sitemap.xml", in: folder)
        } else {
            if !pending.isEmpty { try writePending(to: "sitemaps/sitemap-\(files + 1).xml", in: folder) }
            let parts = (1...files).map { "\(siteURL)sitemaps/sitemap-\($0).xml" }
            try folder.write(Self.file("sitemapindex", "sitemap", parts), to: "sitemap.xml")
        }
        // Crawlers read `robots.txt` only at the top of a host: a site under a path leaves it to the host's own.
        if siteURL.split(separator: "/", omittingEmptySubsequences: false).count == 4 {
            try folder.write("User-agent: *\nAllow: /\n\nSitemap: \(siteURL)sitemap.xml\n", to: "robots.txt")
        }
    }

    private mutating func writePending(to path: String, in folder: OutputFolder) throws(ExportError) {
        try folder.write(Self.file("urlset", "url", pending.map { siteURL + $0 }), to: path)
        pending.removeAll(keepingCapacity: true)
        if path != "sitemap.xml" { files += 1 }
    }

    /// A sitemap file: `root` (`urlset`, `sitemapindex`) holding an `element` (`url`, `sitemap`) with each address
    /// as its `loc`, escaped as the templates escape text.
    private static func file(_ root: String, _ element: String, _ addresses: [String]) -> [UInt8] {
        var output = RenderedBytes()
        output.append(
            #"<?xml version="1.0" encoding="UTF-8"?>"#
                + "\n<\(root) xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
            escaping: .none)
        for address in addresses {
            output.append("<\(element)><loc>", escaping: .none)
            output.append(address, escaping: .html)
            output.append("</loc></\(element)>\n", escaping: .none)
        }
        output.append("</\(root)>\n", escaping: .none)
        return output.bytes
    }
}
