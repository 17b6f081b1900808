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
    package var format: CatalogFormat { .html }

    package init(templates: TemplateLibrary) {
        self.templates = templates
    }

    package func write(_ viewModel: CatalogViewModel, to folder: OutputFolder) throws(ExportError) {
        let layout = SiteLayout(viewModel)
        try folder.write(templates.asset("html/style.css"), to: "assets/style.css")
        try folder.write(templates.asset("html/gallery.js"), to: "assets/gallery.js")
        try templates.page("html/index.html", layout.index(), to: "index.html", in: folder)
        for page in layout.letterPages() {
            try templates.page("html/letter.html", page.context, to: "letters/\(page.fileName)", in: folder)
        }
        // An artist page and the detail pages of its objects are one job; jobs run on every core.
        let jobs = viewModel.sections.indices.flatMap { section in
            viewModel.sections[section].pages.indices.map { (section, $0) }
        }
        let failure = FirstFailure()
        DispatchQueue.concurrentPerform(iterations: jobs.count) { number in
            guard !failure.isSet else { return }
            let (sectionIndex, pageIndex) = jobs[number]
            let section = viewModel.sections[sectionIndex]
            let page = section.pages[pageIndex]
            do throws(ExportError) {
                // A page whose context is what the last export rendered it from is kept, not rendered again.
                let context = layout.artistPage(section, page)
                try templates.page("html/artist.html", context, to: "artists/\(page.fileName)", in: folder)
                for index in page.range {
                    try templates.page(
                        "html/object.html", layout.objectPage(section, index),
                        to: "objects/\(section.objects[index].pageName)", in: folder)
                }
            } catch {
                failure.record(error)
            }
        }
        if let error = failure.error { throw error }
        let search = SearchIndex(viewModel)
        try folder.write(search.manifestScript(), to: "search/manifest.js")
        for (key, script) in search.shardScripts() {
            try folder.write(script, to: "search/\(key).js")
        }
    }
}

/// The first error of parallel work, kept so that the others can stop early.
private final class FirstFailure: Sendable {
    private let first = Locked<ExportError?>(nil)

    var isSet: Bool { first.withLock { $0 != nil } }
    var error: ExportError? { first.current }

    func record(_ error: ExportError) {
        first.withLock { if $0 == nil { $0 = error } }
    }
}
