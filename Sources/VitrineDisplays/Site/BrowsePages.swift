import VitrineCore
import VitrineOutput

/// `types.html` and `periods.html`: the groups of one way of browsing, each with its count.
struct BrowseListPage: TemplateContext {
    let head: PageHead
    let title: String
    let subtitle: String
    let groups: [BrowseGroupLink]

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .title: .text(title)
        case .subtitle: .text(subtitle)
        case .groups: .list(groups)
        default: head.value(for: key)
        }
    }
}

/// A type or a period on its list: its name, its first page and its count.
struct BrowseGroupLink: TemplateContext {
    let label: String
    let href: String
    let countLabel: String

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .label: .text(label)
        case .href: .text(href)
        case .countLabel: .text(countLabel)
        default: nil
        }
    }
}

/// `types/{slug}.html`, `periods/{slug}.html` (`--2.html` …): one page of a group's cards, rendered as their
/// artist pages render them.
struct BrowseGroupPage: TemplateContext {
    let head: PageHead
    let name: String
    let countLabel: String
    /// `Object types` or `Periods`, and the list's page from here.
    let browseKind: String
    let listHref: String
    let pages: [ArtistPageNames.SectionPage]
    let pageIndex: Int
    let cards: String

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .name: .text(name)
        case .countLabel: .text(countLabel)
        case .browseKind: .text(browseKind)
        case .listHref: .text(listHref)
        case .cardsHTML: .text(cards)
        default: Pager(pages: pages, pageIndex: pageIndex).value(for: key) ?? head.value(for: key)
        }
    }
}

extension BrowseIndex {
    /// Writes `types.html`, `periods.html` and their groups' pages, and returns every page's path (for the
    /// sitemap). A list with no group is not written.
    func write(
        site: SiteHead, cardsPerPage: Int, templates: TemplateLibrary, in folder: OutputFolder
    ) throws(ExportError) -> [String] {
        let (types, periods) = groups()
        var paths: [String] = []
        for (folderName, title, groups) in [("types", "Object types", types), ("periods", "Periods", periods)]
        where !groups.isEmpty {
            let total = groups.reduce(0) { $0 + $1.group.objects.count }
            var links: [BrowseGroupLink] = []
            for (slug, group) in groups {
                let pages = ArtistPageNames.pages(of: group.objects.count, named: slug, cardsPerPage: cardsPerPage)
                let countLabel = NumberText.counted(group.objects.count, "object")
                links.append(
                    BrowseGroupLink(label: group.label, href: "\(folderName)/\(slug).html", countLabel: countLabel))
                for (index, page) in pages.enumerated() {
                    let path = "\(folderName)/\(page.fileName)"
                    let head = PageHead(
                        site: site, root: "../", path: path,
                        title: pages.count > 1 ? "\(group.label), page \(index + 1)" : group.label,
                        description: "\(countLabel) of \(SiteHead.withArticle(site.title)): \(group.label).")
                    let cards = cards(group.objects[page.range])
                    let model = BrowseGroupPage(
                        head: head, name: group.label, countLabel: countLabel, browseKind: title,
                        listHref: "../\(folderName).html", pages: pages, pageIndex: index,
                        cards: String(decoding: cards, as: UTF8.self))
                    try folder.write(templates.render("html/group.html", model), to: path)
                    paths.append(path)
                }
            }
            let list = BrowseListPage(
                head: PageHead(
                    site: site, root: "", path: "\(folderName).html", title: title,
                    description:
                        "\(SiteHead.withArticle(site.title, startingSentence: true)) by \(title.lowercased()): \(groups.count) in all."
                ),
                title: title,
                subtitle: "\(NumberText.counted(total, "object")) in \(groups.count) "
                    + (folderName == "types" ? "types" : "periods"),
                groups: links)
            try folder.write(templates.render("html/browse.html", list), to: "\(folderName).html")
            paths.append("\(folderName).html")
        }
        return paths
    }
}
