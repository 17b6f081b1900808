import Foundation
import VitrineCore
import VitrineOutput

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

    package init(templates: TemplateLibrary, cardsPerPage: Int = ArtistPageNames.defaultCardsPerPage) {
        self.templates = templates
        self.cardsPerPage = cardsPerPage
    }

    package func start(
        _ outline: CatalogViewModel, in folder: OutputFolder
    ) throws(ExportError) -> any CatalogPartWriter {
        try folder.write(templates.asset("html/style.css"), to: "assets/style.css")
        try folder.write(templates.asset("html/gallery.js"), to: "assets/gallery.js")
        try folder.write(templates.asset("html/favicon.svg"), to: "assets/favicon.svg")
        let logo = SiteHead.logoPath(outline.siteLogo)
        if !logo.isEmpty {
            guard let bytes = FileManager.default.contents(atPath: outline.siteLogo) else {
                throw ExportError(.configuration("cannot read the site's logo \(outline.siteLogo)"))
            }
            try folder.write(bytes, to: logo)
        }
        return Writer(templates: templates, folder: folder, plan: GalleryPlan(outline, cardsPerPage: cardsPerPage))
    }

    /// The gallery under way: each part's artist and detail pages (and its objects' search entries); the index,
    /// the letter pages and the search shards at the end.
    private final class Writer: CatalogPartWriter {
        let templates: TemplateLibrary
        let folder: OutputFolder
        /// The plan of the whole catalog, and what is gathered of every part: changed by one part at a time.
        private let state: Locked<State>
        /// The last export's cards, which a changed artist page copies when they did not change; and this export's.
        private let lastCards: FragmentLibrary?
        private let cards = FragmentLog()

        private struct State: Sendable {
            var plan: GalleryPlan
            var search = SearchIndex()
            /// Every page's address so far, when the site's address is known.
            var siteMap: SiteMap?
            var rights = RightsTally()
            var browse = BrowseIndex()
            /// The catalog's first picture, from the site's top: a shared link to the index shows it.
            var cover = ""
        }

        init(templates: TemplateLibrary, folder: OutputFolder, plan: GalleryPlan) {
            self.templates = templates
            self.folder = folder
            let siteURL = plan.viewModel.siteURL
            state = Locked(State(plan: plan, siteMap: siteURL.isEmpty ? nil : SiteMap(siteURL: siteURL)))
            lastCards = FragmentLibrary("artists", in: folder)
        }

        func write(_ part: CatalogPart) async throws(ExportError) {
            let plan = state.withLock { state in
                state.plan = state.plan.with(part)
                return state.plan
            }
            let names = plan.names
            let inputs = PartInputs(
                object: try templates.inputs("html/object.html"), artist: try templates.inputs("html/artist.html"),
                cardSeed: templates.fragmentSeed("html/artist.html"),
                cardKeys: try templates.keys("html/artist.html", inSectionsOver: .cards))
            // The part's search entries, sitemap addresses and rights are gathered beside the pages.
            async let gathered = state.withLock { [folder, templates] state in
                Result { () throws(ExportError) in
                    try state.search.add(part.catalog, sections: part.sections)
                    try Self.gather(part, names: names, into: &state, folder: folder, templates: templates)
                }
            }
            // An artist page and the detail pages of its objects are one task.
            let pages = part.sections.flatMap { section in names.pages[section].indices.map { (section, $0) } }
            try await sideBySide(pages) { section, page throws(ExportError) in
                try self.writePages(section, page, of: part, plan: plan, inputs: inputs)
            }
            try await gathered.get()
            // The part's objects are let go before the next part is made, unless the index shows every card.
            if !plan.inline { state.withLock { $0.plan = $0.plan.withoutObjects() } }
        }

        /// What a part's pages are rendered with, the same for each.
        private struct PartInputs: Sendable {
            let object: PageInputs
            let artist: PageInputs
            let cardSeed: Fingerprint
            let cardKeys: [TemplateKey]
        }

        /// Writes page `pageIndex` of section `sectionIndex` and the detail pages of its objects.
        private func writePages(
            _ sectionIndex: Int, _ pageIndex: Int, of part: CatalogPart, plan: GalleryPlan, inputs: PartInputs
        ) throws(ExportError) {
            let page = plan.names.pages[sectionIndex][pageIndex]
            // The cards of this page and of the pages beside it, as the last export had them, may be copied.
            let sectionPages = plan.names.pages[sectionIndex]
            let beside = sectionPages.indices.clamped(to: (pageIndex - 1)..<(pageIndex + 2))
            try writeArtistPage(
                plan.artistPage(sectionIndex, pageIndex, cardSeed: inputs.cardSeed, templateKeys: inputs.cardKeys),
                inputs: inputs.artist, neighbours: beside.map { sectionPages[$0].fileName })
            // By position: mapping the objects would copy each one.
            let objects = part.catalog.sections[sectionIndex].objects
            let objectPages = page.range.map { objects[$0].pageName }
            // A first export keeps nothing: each detail page is built once, and written.
            guard folder.mayKeepAny else {
                for (offset, index) in page.range.enumerated() {
                    let model = plan.objectPage(sectionIndex, index)
                    try templates.render(
                        "html/object.html", model, to: "objects/\(objectPages[offset])", in: folder,
                        inputs: inputs.object(model))
                }
                return
            }
            // A night asks for the page's detail pages together, and keeps nearly all of them. They are built again
            // to render, not held, so memory stays flat however many a page holds.
            let fingerprints = page.range.map { inputs.object(plan.objectPage(sectionIndex, $0)) }
            let kept = folder.keep(objectPages, in: "objects", fingerprints: fingerprints)
            for (offset, index) in page.range.enumerated() where !kept[offset] {
                try templates.render(
                    "html/object.html", plan.objectPage(sectionIndex, index),
                    to: "objects/\(objectPages[offset])", in: folder, inputs: fingerprints[offset])
            }
        }

        /// Keeps an artist page whose values are what the last export rendered it from (and whose cards its
        /// fragment index lists); else renders it, copying the cards of the last run's page and its neighbours
        /// (`neighbours`, by file name) that did not change.
        private func writeArtistPage(_ page: ArtistPage, inputs pageInputs: PageInputs, neighbours: [String])
            throws(ExportError)
        {
            var page = page
            let inputs = pageInputs(page)
            let path = "artists/\(page.fileName)"
            if let last = lastCards?.entries(of: page.fileName, fingerprint: inputs),
                folder.keep(path, fingerprint: inputs)
            {
                try cards.record(page.fileName, made: last.made, entries: last.entries)
                return
            }
            page.known = lastCards?.known(neighbours)
            let (fragments, size) = try templates.render("html/artist.html", page, to: path, in: folder, inputs: inputs)
            folder.noteCopied(page.known?.copied ?? 0)
            try cards.record(
                page.fileName, made: OutputManifest.Made(fingerprint: inputs, size: size), fragments: fragments)
        }

        func finish() async throws(ExportError) {
            var (plan, search) = state.withLock { state in
                defer { state.search = SearchIndex() }
                return (state.plan, state.search)
            }
            // The index shows every card only when the catalog is one part: `plan` has its objects then.
            var (cover, siteMap, browse) = state.withLock { state in
                defer { state.browse = BrowseIndex() }
                return (state.cover, state.siteMap, state.browse)
            }
            try browse.finish()
            let browsePages = try browse.write(
                site: plan.site, cardsPerPage: plan.names.cardsPerPage, templates: templates, in: folder)
            // Its cards and groups are let go before the search index is split into shards.
            browse = BrowseIndex()
            try templates.page(
                "html/index.html",
                plan.index(
                    coverImage: cover,
                    browsing: (browsePages.contains("types.html"), browsePages.contains("periods.html"))),
                to: "index.html", in: folder)
            let letterPages = plan.letterPages()
            for (fileName, page) in letterPages {
                try templates.page("html/letter.html", page, to: "letters/\(fileName)", in: folder)
            }
            if var siteMap {
                for path in ["", "data.html"] + letterPages.map({ "letters/\($0.fileName)" }) + browsePages {
                    try siteMap.add(path, in: folder)
                }
                try siteMap.finish(in: folder)
            }
            try cards.write(of: "artists", in: folder)
            try await search.finish()
            try folder.write(search.manifestScript(), to: "search/manifest.js")
            try await search.forEachShard { [folder] _, stem, script throws(ExportError) in
                try folder.write(script, to: "search/\(stem).js")
            }
        }

        /// Notes a part's cards for the pages by type and by period, its pages in the sitemap, its objects' rights,
        /// and the catalog's first picture.
        private static func gather(
            _ part: CatalogPart, names: ArtistPageNames, into state: inout State, folder: OutputFolder,
            templates: TemplateLibrary
        ) throws(ExportError) {
            for section in part.sections {
                let objects = part.catalog.sections[section].objects
                for position in objects.indices {
                    var card = Card(objects: objects, position: position, root: "../")
                    card.showsMaker = true
                    let (type, year) =
                        objects.withObject(at: position) {
                            ($0.pointee.details.objectType, $0.pointee.details.yearBegin)
                        }
                        ?? ("", nil)
                    try state.browse.add(card: templates.render("html/card", card), type: type, yearBegin: year)
                }
                objects.forEachInPlace { object in
                    state.rights.add(
                        label: object.pointee.details.rightsLabel, url: object.pointee.details.rightsURL,
                        open: object.pointee.details.isOpenAccess == true)
                    if state.cover.isEmpty {
                        state.cover =
                            object.pointee.largeImageURL.isEmpty
                            ? object.pointee.thumbnailURL : object.pointee.largeImageURL
                    }
                }
                guard state.siteMap != nil else { continue }
                for page in names.pages[section] { try state.siteMap?.add("artists/\(page.fileName)", in: folder) }
                for position in objects.indices {
                    try state.siteMap?.add("objects/\(objects[position].pageName)", in: folder)
                }
            }
        }

        func describe(_ files: [CatalogFile]) throws(ExportError) {
            let (plan, rights) = state.withLock { ($0.plan, $0.rights) }
            let catalog = plan.viewModel
            let page = DataPage(
                head: PageHead(
                    site: plan.site, root: "", path: "data.html", title: "The collection as data",
                    description:
                        "\(SiteHead.withArticle(catalog.title, startingSentence: true)) as data files to download: \(catalog.subtitle)."
                ),
                subtitle: catalog.subtitle,
                files: files.filter { $0.format != .html }.map {
                    DataFile(file: $0, splitMarkdown: catalog.objectCount > MarkdownDisplay.splitThreshold)
                },
                rights: rights, objectCount: catalog.objectCount)
            try templates.page("html/data.html", page, to: "data.html", in: folder)
        }
    }
}
