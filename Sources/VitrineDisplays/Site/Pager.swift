/// What `html/pager` shows of a page of several: whether there are several, this one's number, the pages it links,
/// and the pages before and after it.
struct Pager {
    let pages: [ArtistPageNames.SectionPage]
    let pageIndex: Int

    /// The pages a pager links: the first, the last, and two either side of this one (a gap of one page is linked
    /// rather than skipped). Linking every page would make a section's pages grow with the square of its size.
    static func linked(_ count: Int, around index: Int) -> [Int] {
        guard count > 0 else { return [] }
        var (low, high) = (max(0, index - 2), min(count - 1, index + 2))
        if low <= 2 { low = 0 }
        if high >= count - 3 { high = count - 1 }
        return (low == 0 ? [] : [0]) + Array(low...high) + (high == count - 1 ? [] : [count - 1])
    }

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .hasPages: .flag(pages.count > 1)
        case .number: .number(pageIndex + 1)
        case .pageCount: .number(pages.count)
        case .pages:
            .list(
                Self.linked(pages.count, around: pageIndex).reduce(into: [PageLink]()) { links, index in
                    let gap = index > (links.last?.page.number ?? 1)
                    links.append(PageLink(page: pages[index], current: index == pageIndex, gapBefore: gap))
                })
        case .previous: pageIndex > 0 ? .text(pages[pageIndex - 1].fileName) : nil
        case .next: pageIndex + 1 < pages.count ? .text(pages[pageIndex + 1].fileName) : nil
        default: nil
        }
    }
}

/// A numbered link to one page of a section.
struct PageLink: TemplateContext {
    let page: ArtistPageNames.SectionPage
    /// Whether this is the page showing it (only a pager says).
    let current: Bool?
    /// Whether pages between the one linked before and this one are not linked.
    var gapBefore = false

    func value(for key: TemplateKey) -> TemplateValue? {
        switch key {
        case .number: .number(page.number)
        case .href: .text(page.fileName)
        case .current: current.map { .flag($0) }
        case .gapBefore: .flag(gapBefore)
        default: nil
        }
    }
}
