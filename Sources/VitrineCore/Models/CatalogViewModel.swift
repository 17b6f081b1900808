/// Everything a catalog shows, as display strings: what the Presenter hands the Displays. It is the same for every
/// format: each display plans its own files (the gallery its pages and their names, the Markdown catalog its
/// anchors).
///
/// Templates only place these values; they transform nothing. Empty strings mean "absent", with a `has…`
/// flag beside each optional value so Mustache sections can test it.
package struct CatalogViewModel: Sendable, Equatable {
    /// The catalog's title (`Rijksmuseum collection`).
    package var title: String
    /// One line under the title (`325 objects by 31 makers`).
    package var subtitle: String
    /// What the site says of itself (`--site-description`); empty when not given.
    package var siteDescription = ""
    /// The site's public address, ending in `/` (`--site-url`); empty when not given.
    package var siteURL = ""
    /// The logo file to copy into the site (`--site-logo`), as the user named it; empty when not given.
    package var siteLogo = ""
    /// The institution the objects belong to.
    package var institution: String
    /// The source's command-line name, as written in the CSV's `source` column.
    package var sourceName: String
    package var objectCount: Int
    package var sectionCount: Int
    /// Sections in catalog order: by maker name, case and accents ignored; unknown maker last.
    package var sections: [DisplayedSection]
    /// Files the export writes beside the catalogs because objects show them (the demo's pictures), as paths
    /// relative to the output folder, sorted. Every other image URL is absolute.
    package var bundledFiles: [String] = []

    package init(
        title: String,
        subtitle: String,
        institution: String,
        sourceName: String,
        objectCount: Int,
        sectionCount: Int,
        sections: [DisplayedSection]
    ) {
        self.title = title
        self.subtitle = subtitle
        self.institution = institution
        self.sourceName = sourceName
        self.objectCount = objectCount
        self.sectionCount = sectionCount
        self.sections = sections
    }

    /// One maker's section.
    package struct DisplayedSection: Sendable, Equatable {
        /// The maker's name, or "Unknown artist".
        package var name: String
        /// Unique, ASCII, safe as a file name and an HTML id (`rembrandt-van-rijn`).
        package var slug: String
        /// `12 objects`.
        package var countLabel: String
        package var isUnknownMaker: Bool
        /// The section's objects; empty in a catalog's outline, whose objects come a part at a time.
        package var objects: [DisplayedObject]
        /// How many objects the section has, whether `objects` holds them or not.
        package var objectCount: Int
        /// The letter the section files under (`A`…`Z`, `#` for others, `?` unknown).
        package var letter: String = "#"

        package init(
            name: String,
            slug: String,
            countLabel: String,
            isUnknownMaker: Bool,
            objects: [DisplayedObject],
            objectCount: Int? = nil
        ) {
            self.name = name
            self.slug = slug
            self.countLabel = countLabel
            self.isUnknownMaker = isUnknownMaker
            self.objects = objects
            self.objectCount = objectCount ?? objects.count
        }
    }

    /// One object, ready to show.
    package struct DisplayedObject: Sendable, Equatable {
        /// The museum's identifier.
        package var id: String
        package var title: String
        /// The maker's name as shown; empty for the unknown-maker section.
        package var maker: String
        package var date: String
        package var hasDate: Bool
        /// `http(s)` URL of the museum's page; empty when there is none.
        package var objectURL: String
        package var hasObjectURL: Bool
        /// `http(s)` URL (or a bundled picture's path) of the thumbnail at the requested width, and its size;
        /// empty when there is no image.
        package var thumbnailURL: String
        package var thumbnailWidth: Int
        package var thumbnailHeight: Int
        /// The thumbnail at twice the width, for `srcset`; empty when the host cannot size images.
        package var thumbnail2xURL: String
        /// The detail page's rendition and its size; empty and 0 when there is none.
        package var largeImageURL: String
        package var largeWidth: Int
        package var largeHeight: Int
        /// The full-size image; empty when there is none.
        package var imageURL: String
        /// The file name of the object's detail page inside the gallery's `objects/` (`sk-c-5.html`): unique in the
        /// catalog, ASCII, bounded; a Markdown line can link to it too.
        package var pageName = ""
        /// Everything else the source tells about it.
        package var details = DisplayedDetails()

        /// Alt text for the image: title, maker and date. Made when a page asks for it rather than held: it repeats
        /// what the object already holds.
        package static func altText(title: String, maker: String, date: String) -> String {
            var alt = title
            if !maker.isEmpty { alt += ", \(maker)" }
            if !date.isEmpty { alt += ", \(date)" }
            return alt
        }

        package init(
            id: String,
            title: String,
            maker: String,
            date: String,
            thumbnail: ThumbnailSelector.Thumbnail,
            thumbnail2xURL: String,
            large: ThumbnailSelector.Thumbnail,
            imageURL: String,
            objectURL: String
        ) {
            self.id = id
            self.title = title
            self.maker = maker
            self.date = date
            self.hasDate = !date.isEmpty
            self.thumbnailURL = thumbnail.url
            self.thumbnailWidth = thumbnail.width
            self.thumbnailHeight = thumbnail.height
            self.thumbnail2xURL = thumbnail2xURL
            self.largeImageURL = large.url
            self.largeWidth = large.width
            self.largeHeight = large.height
            self.imageURL = imageURL
            self.objectURL = objectURL
            self.hasObjectURL = !objectURL.isEmpty
        }
    }
}

/// The end-of-run report: the summary line, and the warnings and notices before it.
package struct SummaryViewModel: Sendable, Equatable {
    /// `warning: page 3, record 7: …` lines, one per skipped record (capped, with a count of the rest).
    package var warnings: [String]
    /// `note: …` lines about the harvest as a whole.
    package var notices: [String]
    /// `vitrine: 13 pages, 325 objects, 31 sections, 1 duplicate, 0 skipped, 0.4 s`.
    package var summary: String
    /// The same figures as values.
    package var report = RunReport()
}

/// What the catalog display wrote, as the end-of-run report shows it.
package struct WrittenViewModel: Sendable, Equatable {
    /// `wrote Output/index.html, Output/catalog.md, … (3,412 files rendered, 96,998 unchanged and kept)`; `nil`
    /// when nothing was written.
    package var line: String?
    /// What to know of the output folder: formats kept or removed, files carried over.
    package var notices: [String]
    /// Files rendered, and kept from the last export unchanged.
    package var rendered: Int
    package var kept: Int
}

extension UnsafePointer<CatalogViewModel.DisplayedObject> {
    // An object's derived strings from a pointer to it, each from the fields it needs: a computed property of
    // `pointee` copies the whole object to call its getter.

    /// `altText` of the object pointed to.
    package var altText: String {
        CatalogViewModel.DisplayedObject.altText(title: pointee.title, maker: pointee.maker, date: pointee.date)
    }
}
