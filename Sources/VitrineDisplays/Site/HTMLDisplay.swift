import Foundation
import VitrineCore

/// The HTML gallery site: `index.html` (A–Z letter bar, sections with counts, cards inline for small
/// collections), a page per letter when the makers are many, `artists/{slug}.html` (split into numbered pages of
/// cards), `objects/{page}.html` (a detail page per object, with prev/next in its section), the search index in
/// `search/`, and the assets. Every page is rendered from the templates in `Templates/html/`.
package struct HTMLDisplay: CatalogFileDisplay {
    /// Up to this many objects, the index shows every card inline.
    package static let inlineCardLimit = 500
    /// Up to this many makers, the index lists them all; past it, each letter gets pages of its own.
    package static let makersPerPage = 1_000

    package let templates: TemplateLibrary
    /// Cards on one page of a section (`--cards-per-page`).
    package let cardsPerPage: Int
    package var format: CatalogFormat { .html }

    package init(templates: TemplateLibrary, cardsPerPage: Int = GalleryNames.defaultCardsPerPage) {
        self.templates = templates
        self.cardsPerPage = cardsPerPage
    }

    package func write(
        _ viewModel: CatalogViewModel, names shared: SharedNames, to folder: OutputFolder
    ) throws(ExportError) {
        let plan = GalleryPlan(viewModel, names: shared.gallery(cardsPerPage: cardsPerPage))
        let names = plan.names
        try folder.write(templates.asset("html/style.css"), to: "assets/style.css")
        try folder.write(templates.asset("html/gallery.js"), to: "assets/gallery.js")
        try templates.page("html/index.html", plan.index(), to: "index.html", in: folder)
        for (fileName, page) in plan.letterPages() {
            try templates.page("html/letter.html", page, to: "letters/\(fileName)", in: folder)
        }
        // An artist page and the detail pages of its objects are one job; jobs run on every core.
        let jobs = names.pages.indices.flatMap { section in names.pages[section].indices.map { (section, $0) } }
        let failure = FirstFailure()
        // The search index is built and written beside the pages.
        let search = DispatchGroup()
        DispatchQueue.global().async(group: search) {
            do throws(ExportError) {
                let index = SearchIndex(viewModel, names: names)
                try folder.write(index.manifestScript(), to: "search/manifest.js")
                try index.forEachShard { stem, script throws(ExportError) in
                    try folder.write(script, to: "search/\(stem).js")
                }
            } catch {
                failure.record(error)
            }
        }
        DispatchQueue.concurrentPerform(iterations: jobs.count) { number in
            guard !failure.isSet else { return }
            let (sectionIndex, pageIndex) = jobs[number]
            let page = names.pages[sectionIndex][pageIndex]
            do throws(ExportError) {
                // A page whose values are what the last export rendered it from is kept, not rendered again.
                try templates.page(
                    "html/artist.html", plan.artistPage(sectionIndex, pageIndex), to: "artists/\(page.fileName)",
                    in: folder)
                for index in page.range {
                    try templates.page(
                        "html/object.html", plan.objectPage(sectionIndex, index),
                        to: "objects/\(names.objectPages[sectionIndex][index])", in: folder)
                }
            } catch {
                failure.record(error)
            }
        }
        search.wait()
        if let error = failure.error { throw error }
    }
}
