import VitrineCore

/// Where every page of the gallery is and what each page's template is given. Templates receive plain
/// dictionaries: Mustache looks names up in them directly. Paths are relative, so the site works from
/// `file://` and from any static host, in any folder.
struct SiteLayout: Sendable {
    /// A letter of the index and its sections.
    struct LetterGroup: Sendable {
        var letter: String
        /// `a` … `z`, `other`, `unknown`: names the letter's files (`letters/letter-a.html`, `catalog/a.md`).
        var stem: String
        var label: String
        var sections: [CatalogViewModel.DisplayedSection]
        /// Pages of this letter's maker list (`letters/{id}.html`, `{id}--2.html` …), when makers are many.
        var chunks: [String] = []

        /// The HTML id of the letter's heading on the index (`letter-a`).
        var id: String { "letter-\(stem)" }

        /// `3 makers, 24 objects`.
        var countLabel: String { SiteLayout.makersLabel(sections[...]) }
    }

    struct LetterPage {
        var fileName: String
        var context: [String: Any]
    }

    let viewModel: CatalogViewModel
    let groups: [LetterGroup]
    let inline: Bool
    let splitsLetters: Bool
    /// Where each section's letter is listed, from a page one folder down (by section slug).
    private let letterHrefs: [String: String]

    init(_ viewModel: CatalogViewModel) {
        self.viewModel = viewModel
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
        var letterHrefs: [String: String] = [:]
        for group in groups {
            for (position, section) in group.sections.enumerated() {
                letterHrefs[section.slug] =
                    splitsLetters
                    ? "../letters/\(group.chunks[min(position / HTMLDisplay.makersPerPage, group.chunks.count - 1)])"
                    : "../index.html#\(group.id)"
            }
        }
        self.letterHrefs = letterHrefs
    }

    /// The sections by index letter, in catalog order (sections arrive sorted, so each letter is one run).
    static func groups(of sections: [CatalogViewModel.DisplayedSection]) -> [LetterGroup] {
        var groups: [LetterGroup] = []
        for section in sections {
            if groups.last?.letter != section.letter {
                groups.append(
                    LetterGroup(
                        letter: section.letter, stem: letterStem(section.letter), label: letterLabel(section.letter),
                        sections: []))
            }
            groups[groups.count - 1].sections.append(section)
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
        case "?": "Unknown artist"
        default: letter
        }
    }

    // MARK: - Pages

    func index() -> [String: Any] {
        let present = Set(groups.map(\.letter))
        let letters: [[String: Any]] = (Self.alphabet + ["#", "?"]).compactMap { letter in
            if letter == "?" && !present.contains("?") { return nil }
            let group = groups.first { $0.letter == letter }
            let href: String =
                if splitsLetters, let first = group?.chunks.first { "letters/\(first)" } else {
                    "#letter-\(Self.letterStem(letter))"
                }
            return [
                "letter": letter == "?" ? "Unknown" : letter, "hasSections": present.contains(letter),
                "href": href,
            ]
        }
        let groupContexts: [[String: Any]] = groups.map { group in
            var context: [String: Any] = ["id": group.id, "label": group.label, "countLabel": group.countLabel]
            if splitsLetters {
                context["hasChunks"] = true
                context["chunks"] = group.chunks.enumerated().map { index, file -> [String: Any] in
                    let range = chunkRange(group, index)
                    let first = group.sections[range.lowerBound].name
                    let last = group.sections[range.upperBound - 1].name
                    return [
                        "href": "letters/\(file)",
                        "label": range.count == group.sections.count
                            ? "All \(group.sections.count) makers" : "\(first) – \(last)",
                    ]
                }
            } else {
                context["hasMakers"] = true
                context["inline"] = inline
                context["root"] = ""
                context["sections"] = group.sections.map { makerContext($0, root: "") }
            }
            return context
        }
        return [
            "title": viewModel.title, "subtitle": viewModel.subtitle, "objectCount": viewModel.objectCount,
            "sectionCount": viewModel.sectionCount, "institution": viewModel.institution,
            "sourceName": viewModel.sourceName, "letters": letters, "groups": groupContexts, "root": "",
            "siteTitle": viewModel.title,
        ]
    }

    func letterPages() -> [LetterPage] {
        guard splitsLetters else { return [] }
        return groups.flatMap { group in
            group.chunks.enumerated().map { index, file in
                let sections = group.sections[chunkRange(group, index)]
                let label = group.chunks.count > 1 ? "\(group.label), part \(index + 1)" : group.label
                return LetterPage(
                    fileName: file,
                    context: [
                        "root": "../", "siteTitle": viewModel.title, "label": label,
                        "countLabel": Self.makersLabel(sections), "inline": false,
                        "sections": sections.map { makerContext($0, root: "../") },
                    ])
            }
        }
    }

    func artistPage(_ section: CatalogViewModel.DisplayedSection, _ page: CatalogViewModel.SectionPage)
        -> [String: Any]
    {
        let number = page.number
        let pages: [[String: Any]] = section.pages.map {
            ["number": $0.number, "href": $0.fileName, "current": $0.number == number]
        }
        var context: [String: Any] = [
            "root": "../", "siteTitle": viewModel.title, "name": section.name, "countLabel": section.countLabel,
            "letter": Self.letterLabel(section.letter), "letterHref": letterHrefs[section.slug] ?? "../index.html",
            "hasPages": section.pages.count > 1, "number": number, "pageCount": section.pages.count,
            "pages": pages, "cards": section.objects[page.range].map { card($0, root: "../") },
        ]
        if number > 1 { context["previous"] = section.pages[number - 2].fileName }
        if number < section.pages.count { context["next"] = section.pages[number].fileName }
        return context
    }

    func objectPage(_ section: CatalogViewModel.DisplayedSection, _ index: Int) -> [String: Any] {
        let object = section.objects[index]
        var context: [String: Any] = [
            "root": "../", "siteTitle": viewModel.title, "institution": viewModel.institution, "id": object.id,
            "title": object.title, "makerName": section.name, "date": object.date, "hasDate": object.hasDate,
            "altText": object.altText, "sectionPageName": object.sectionPageName,
            "largeImageURL": Self.located(object.largeImageURL, from: "../"), "largeWidth": object.largeWidth,
            "largeHeight": object.largeHeight, "hasLarge": !object.largeImageURL.isEmpty,
            "objectURL": object.objectURL, "hasObjectURL": object.hasObjectURL,
            "imageURL": Self.located(object.imageURL, from: "../"), "hasImageURL": !object.imageURL.isEmpty,
        ]
        if index > 0 {
            let previous = section.objects[index - 1]
            context["previous"] = ["title": previous.title, "pageName": previous.pageName]
        }
        if index + 1 < section.objects.count {
            let next = section.objects[index + 1]
            context["next"] = ["title": next.title, "pageName": next.pageName]
        }
        return context
    }

    // MARK: - Parts

    private static let alphabet = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }

    private func chunkRange(_ group: LetterGroup, _ index: Int) -> Range<Int> {
        let start = index * HTMLDisplay.makersPerPage
        return start..<min(start + HTMLDisplay.makersPerPage, group.sections.count)
    }

    private func makerContext(_ section: CatalogViewModel.DisplayedSection, root: String) -> [String: Any] {
        var context: [String: Any] = [
            "name": section.name, "slug": section.slug, "countLabel": section.countLabel,
            "href": section.pages.first?.fileName ?? "\(section.slug).html", "hasPages": section.pages.count > 1,
            "pages": section.pages.map { ["number": $0.number, "href": $0.fileName] as [String: Any] },
            "root": root,
        ]
        if inline { context["cards"] = section.objects.map { card($0, root: root) } }
        return context
    }

    private func card(_ object: CatalogViewModel.DisplayedObject, root: String) -> [String: Any] {
        [
            "root": root, "id": object.id, "title": object.title, "date": object.date, "hasDate": object.hasDate,
            "altText": object.altText, "thumbnailURL": Self.located(object.thumbnailURL, from: root),
            "thumbnail2xURL": Self.located(object.thumbnail2xURL, from: root),
            "hasThumbnail2x": !object.thumbnail2xURL.isEmpty,
            "thumbnailWidth": object.thumbnailWidth, "thumbnailHeight": object.thumbnailHeight,
            "hasThumbnail": object.hasThumbnail, "pageName": object.pageName,
        ]
    }

    /// A URL as a page `root` away from the output folder links to it: web addresses as they are, a bundled
    /// file's path (`images/demo-0001.svg`) with the way back to the top before it.
    static func located(_ url: String, from root: String) -> String {
        url.isEmpty || url.contains("://") ? url : root + url
    }

    /// `3 makers, 24 objects`.
    static func makersLabel(_ sections: ArraySlice<CatalogViewModel.DisplayedSection>) -> String {
        let objects = sections.reduce(0) { $0 + $1.objects.count }
        return "\(ExportPresenter.count(sections.count, "maker")), \(ExportPresenter.count(objects, "object"))"
    }
}
