import VitrineCore

/// Where every page of the gallery is: its artist pages' names (`ArtistPageNames`), the letters of the index, the
/// pages each letter's maker list is split into when makers are many, and where each section's letter is listed. It
/// builds each page's typed model (`GalleryPages.swift`). Paths are relative, so the site works from `file://` and
/// from any static host.
struct GalleryPlan: Sendable {
    /// A letter of the index and its sections.
    struct LetterGroup: Sendable {
        var letter: String
        /// `a` … `z`, `other`, `unknown`: names the letter's files (`letters/letter-a.html`, `catalog/a.md`).
        var stem: String
        var label: String
        var sections: ArraySlice<CatalogViewModel.DisplayedSection>
        /// Pages of this letter's maker list (`letters/{id}.html`, `{id}--2.html` …), when makers are many.
        var chunks: [String] = []

        /// The HTML id of the letter's heading on the index (`letter-a`).
        var id: String { "letter-\(stem)" }

        /// `3 makers, 24 objects`.
        var countLabel: String { GalleryPlan.makersLabel(sections) }
    }

    /// The catalog: its outline, or the part being written, whose objects are in place.
    private(set) var viewModel: CatalogViewModel
    let names: ArtistPageNames
    private(set) var groups: [LetterGroup]
    /// Whether the index shows every card (small collections).
    let inline: Bool
    /// Whether each letter's makers get pages of their own (many makers).
    let splitsLetters: Bool
    /// Where each section's letter is listed, from a page one folder down (by section position).
    private let letterHrefs: [String]
    let site: SiteHead

    init(_ viewModel: CatalogViewModel, cardsPerPage: Int = ArtistPageNames.defaultCardsPerPage) {
        self.viewModel = viewModel
        self.names = ArtistPageNames(viewModel, cardsPerPage: cardsPerPage)
        inline = viewModel.objectCount <= HTMLDisplay.inlineCardLimit
        splitsLetters = viewModel.sections.count > HTMLDisplay.makersPerPage
        var groups = Self.groups(of: viewModel.sections)
        if splitsLetters {
            for index in groups.indices {
                let count = (groups[index].sections.count + HTMLDisplay.makersPerPage - 1) / HTMLDisplay.makersPerPage
                groups[index].chunks = (1...max(count, 1)).map {
                    $0 == 1 ? "\(groups[index].id).html" : "\(groups[index].id)--\($0).html"
                }
            }
        }
        self.groups = groups
        var letterHrefs: [String] = []
        letterHrefs.reserveCapacity(viewModel.sections.count)
        for group in groups {
            for position in 0..<group.sections.count {
                letterHrefs.append(
                    splitsLetters
                        ? "../letters/\(group.chunks[min(position / HTMLDisplay.makersPerPage, group.chunks.count - 1)])"
                        : "../index.html#\(group.id)")
            }
        }
        self.letterHrefs = letterHrefs
        site = SiteHead(viewModel)
    }

    /// The same plan, for a part of the catalog: its objects.
    func with(_ part: CatalogPart) -> GalleryPlan {
        var plan = self
        plan.viewModel = part.catalog
        for index in plan.groups.indices {
            plan.groups[index].sections = part.catalog.sections[plan.groups[index].sections.indices]
        }
        return plan
    }

    /// The same plan with no part's objects: all the index and the letter pages need of a catalog that does not
    /// show its cards on the index.
    func withoutObjects() -> GalleryPlan {
        var plan = self
        for index in plan.viewModel.sections.indices { plan.viewModel.sections[index].objects = [] }
        for index in plan.groups.indices {
            plan.groups[index].sections = plan.viewModel.sections[plan.groups[index].sections.indices]
        }
        return plan
    }

    /// The sections by index letter, in catalog order (sections arrive sorted, so each letter is one run).
    static func groups(of sections: [CatalogViewModel.DisplayedSection]) -> [LetterGroup] {
        var groups: [LetterGroup] = []
        var start = 0
        for index in sections.indices
        where index + 1 == sections.count || sections[index + 1].letter != sections[index].letter {
            let letter = sections[index].letter
            groups.append(
                LetterGroup(
                    letter: letter, stem: letterStem(letter), label: letterLabel(letter),
                    sections: sections[start...index]))
            start = index + 1
        }
        return groups
    }

    /// `A` → `a`; `#` → `other`; `?` (the unknown maker) → `unknown`.
    static func letterStem(_ letter: String) -> String {
        switch letter {
        case "#": "other"
        case "?": "unknown"
        default: letter.lowercased()
        }
    }

    static func letterLabel(_ letter: String) -> String {
        switch letter {
        case "#": "Other"
        case "?": "No known maker"
        default: letter
        }
    }

    // MARK: - Pages

    /// - parameter coverImage: the picture a shared link to the site shows when it has no logo (the catalog's
    ///   first picture, from the site's top).
    /// - parameter browsing: whether the site has pages by type and by period.
    func index(coverImage: String = "", browsing: (types: Bool, periods: Bool) = (false, false)) -> IndexPage {
        let present = Set(groups.map(\.letter))
        let letters: [LetterLink] = (Self.alphabet + ["#", "?"]).compactMap { letter in
            if letter == "?" && !present.contains("?") { return nil }
            let group = groups.first { $0.letter == letter }
            let href: String =
                if splitsLetters, let first = group?.chunks.first { "letters/\(first)" } else {
                    "#letter-\(Self.letterStem(letter))"
                }
            return LetterLink(
                letter: letter == "?" ? "Unknown" : letter, hasSections: present.contains(letter), href: href)
        }
        let entries = groups.map { group in
            var entry = LetterEntry(id: group.id, label: group.label, countLabel: group.countLabel)
            if splitsLetters {
                entry.chunks = group.chunks.indices.map { index in
                    let range = chunkRange(group, index)
                    let first = group.sections[range.lowerBound].name
                    let last = group.sections[range.upperBound - 1].name
                    return ChunkLink(
                        href: "letters/\(group.chunks[index])",
                        label: range.count == group.sections.count
                            ? "All \(group.sections.count) makers" : "\(first) – \(last)")
                }
            } else {
                entry.makers = MakerList(inline: inline, root: "", sections: group.sections, names: names)
            }
            return entry
        }
        let description = viewModel.siteDescription.isEmpty ? viewModel.subtitle : viewModel.siteDescription
        return IndexPage(
            catalog: viewModel, letters: letters, groups: entries, browsing: browsing,
            head: PageHead(
                site: site, root: "", path: "", title: viewModel.title, description: description,
                image: site.shareableLogo.isEmpty ? coverImage : site.shareableLogo))
    }

    func letterPages() -> [(fileName: String, page: LetterPage)] {
        guard splitsLetters else { return [] }
        return groups.flatMap { group in
            group.chunks.indices.map { index in
                let sections = group.sections[chunkRange(group, index)]
                let label = group.chunks.count > 1 ? "\(group.label), part \(index + 1)" : group.label
                let countLabel = Self.makersLabel(sections)
                let head = PageHead(
                    site: site, root: "../", path: "letters/\(group.chunks[index])", title: label,
                    description: "Makers under \(label) in \(SiteHead.withArticle(viewModel.title)): \(countLabel).")
                return (
                    group.chunks[index],
                    LetterPage(
                        head: head, label: label, countLabel: countLabel,
                        makers: MakerList(inline: false, root: "../", sections: sections, names: names))
                )
            }
        }
    }

    /// - parameter cardSeed: where each card's key starts (`TemplateLibrary.fragmentSeed`).
    /// - parameter templateKeys: the names each card's key is made of: at least every name a card's body asks for.
    func artistPage(
        _ sectionIndex: Int, _ pageIndex: Int, cardSeed: Fingerprint = Fingerprint(),
        templateKeys: [TemplateKey] = TemplateKey.allCases
    ) -> ArtistPage {
        ArtistPage(
            site: site, section: viewModel.sections[sectionIndex], pages: names.pages[sectionIndex],
            pageIndex: pageIndex, letterHref: letterHrefs[sectionIndex], cardSeed: cardSeed, templateKeys: templateKeys)
    }

    func objectPage(_ sectionIndex: Int, _ index: Int) -> ObjectPage {
        let section = viewModel.sections[sectionIndex]
        let (previous, next) = neighbours(sectionIndex, index)
        return ObjectPage(
            site: site, institution: viewModel.institution, makerName: section.name,
            objects: section.objects, position: index, sectionPageName: names.sectionPageName(sectionIndex, index),
            previous: previous, next: next)
    }

    /// The objects before and after one in its section, as its detail page links them.
    private func neighbours(_ sectionIndex: Int, _ index: Int) -> (previous: Neighbour?, next: Neighbour?) {
        let objects = viewModel.sections[sectionIndex].objects
        return (
            index > 0 ? Neighbour(title: objects[index - 1].title, pageName: objects[index - 1].pageName) : nil,
            index + 1 < objects.count
                ? Neighbour(title: objects[index + 1].title, pageName: objects[index + 1].pageName) : nil
        )
    }

    // MARK: - Parts

    private static let alphabet = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }

    private func chunkRange(_ group: LetterGroup, _ index: Int) -> Range<Int> {
        let start = group.sections.startIndex + index * HTMLDisplay.makersPerPage
        return start..<min(start + HTMLDisplay.makersPerPage, group.sections.endIndex)
    }

    /// A URL as a page `root` away from the output folder links to it: web addresses as they are, a bundled
    /// file's path (`images/demo-0001.svg`) with the way back to the top before it.
    static func located(_ url: String, from root: String) -> String {
        root.isEmpty || url.isEmpty || WebURL.isWebAddress(url) ? url : root + url
    }

    /// `3 makers, 24 objects`; objects alone for the objects of no known maker (not `Unknown artist: 1 maker`).
    static func makersLabel(_ sections: ArraySlice<CatalogViewModel.DisplayedSection>) -> String {
        let objects = NumberText.counted(sections.reduce(0) { $0 + $1.objectCount }, "object")
        if !sections.isEmpty, sections.allSatisfy(\.isUnknownMaker) { return objects }
        return "\(NumberText.counted(sections.count, "maker")), \(objects)"
    }
}
