import VitrineCore

/// The names of each section's pages of cards (`artists/{slug}.html`, `{slug}--2.html` …, at most `cardsPerPage`
/// cards a page): they depend on the sections' object counts only. The Markdown catalog links to them too.
package struct ArtistPageNames: Sendable {
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

    /// The pages of a catalog's sections, from its outline.
    package init(_ outline: CatalogViewModel, cardsPerPage: Int = Self.defaultCardsPerPage) {
        self.cardsPerPage = max(1, cardsPerPage)
        pages = outline.sections.map {
            Self.pages(of: $0.objectCount, named: $0.slug, cardsPerPage: cardsPerPage)
        }
    }

    /// The pages of `count` cards: `{slug}.html`, `{slug}--2.html` …, one page at least.
    static func pages(of count: Int, named slug: String, cardsPerPage: Int) -> [SectionPage] {
        let perPage = max(1, cardsPerPage)
        return stride(from: 0, to: max(count, 1), by: perPage).enumerated().map { index, start in
            SectionPage(
                number: index + 1, fileName: index == 0 ? "\(slug).html" : "\(slug)--\(index + 1).html",
                range: start..<min(start + perPage, count))
        }
    }

    /// The page of `artists/` that shows object `index` of section `section`.
    package func sectionPageName(_ section: Int, _ index: Int) -> String {
        pages[section][min(index / cardsPerPage, pages[section].count - 1)].fileName
    }
}
