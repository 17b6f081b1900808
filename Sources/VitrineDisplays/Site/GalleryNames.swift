import VitrineCore

/// The gallery's file names: each section's pages of cards (`artists/{slug}.html`, `{slug}--2.html` …, at most
/// `cardsPerPage` cards a page) and each object's detail page (`objects/{id}.html`, unique, ASCII, bounded), in
/// catalog order. The Markdown catalog asks for them too, to link into the gallery.
package struct GalleryNames: Sendable {
    /// Cards on one page of a section, by default.
    package static let defaultCardsPerPage = 200

    /// One page of a section's cards.
    package struct SectionPage: Sendable, Equatable {
        /// 1-based.
        package var number: Int
        /// File name inside `artists/` (`rembrandt-van-rijn.html`, `rembrandt-van-rijn--2.html`).
        package var fileName: String
        /// The objects on the page: `objects[range]` of the section.
        package var range: Range<Int>
    }

    package let cardsPerPage: Int
    /// By section: its pages, in order.
    package let pages: [[SectionPage]]
    /// By section, then object: the file name of the object's page inside `objects/`.
    package let objectPages: [[String]]

    package init(_ viewModel: CatalogViewModel, cardsPerPage: Int = Self.defaultCardsPerPage) {
        let perPage = max(1, cardsPerPage)
        self.cardsPerPage = perPage
        var registry = Slug.Registry(reserved: ["index"])
        var pages: [[SectionPage]] = []
        var objectPages: [[String]] = []
        pages.reserveCapacity(viewModel.sections.count)
        objectPages.reserveCapacity(viewModel.sections.count)
        for section in viewModel.sections {
            let count = section.objects.count
            let slug = section.slug
            pages.append(
                stride(from: 0, to: max(count, 1), by: perPage).enumerated().map { index, start in
                    SectionPage(
                        number: index + 1, fileName: index == 0 ? "\(slug).html" : "\(slug)--\(index + 1).html",
                        range: start..<min(start + perPage, count))
                })
            objectPages.append(section.objects.map { registry.claim(Slug.make($0.id, fallback: "object")) + ".html" })
        }
        self.pages = pages
        self.objectPages = objectPages
    }

    /// The page of `artists/` that shows object `index` of section `section`.
    package func sectionPageName(_ section: Int, _ index: Int) -> String {
        pages[section][min(index / cardsPerPage, pages[section].count - 1)].fileName
    }
}
