import Testing

@testable import VitrineDisplays

/// A pager links a few pages, however long its section: every page of a 4,500-page type linking all the others
/// would make the site grow with the square of the collection.
@Suite struct PagerTests {
    @Test func `a pager links the first, the last and two either side, in order, with no gap of one page`() {
        for count in 1...40 {
            for index in 0..<count {
                let linked = Pager.linked(count, around: index)
                let wanted = Set([0, count - 1] + (index - 2...index + 2).filter { (0..<count).contains($0) })
                #expect(wanted.isSubset(of: linked), "\(count) pages, page \(index + 1)")
                #expect(zip(linked, linked.dropFirst()).allSatisfy { $1 - $0 == 1 || $1 - $0 >= 3 })
                #expect(linked.count <= 9 && (count > 5 || linked == Array(0..<count)))
            }
        }
        #expect(Pager.linked(0, around: 0) == [])
    }

    @Test func `a link after pages left out says so, and the current page is marked`() throws {
        let pages = (1...20).map {
            ArtistPageNames.SectionPage(number: $0, fileName: "p\($0).html", range: ($0 - 1) * 10..<$0 * 10)
        }
        guard case .list(let links) = Pager(pages: pages, pageIndex: 9).value(for: .pages) else {
            Issue.record("no list of pages")
            return
        }
        let shown = links.compactMap { $0 as? PageLink }
        #expect(shown.map(\.page.number) == [1, 8, 9, 10, 11, 12, 20])
        #expect(shown.map(\.gapBefore) == [false, true, false, false, false, false, true])
        #expect(shown.map { $0.current == true } == [false, false, false, true, false, false, false])
    }
}
