/// Everything a catalog shows, as display strings: what the Presenter hands the Displays.
///
/// Templates only place these values; they transform nothing. Empty strings mean "absent", with a `has…`
/// flag beside each optional value so Mustache sections can test it.
package struct CatalogViewModel: Sendable, Equatable {
    /// The catalog's title (`Rijksmuseum collection`).
    package var title: String
    /// One line under the title (`325 objects by 31 makers, from rijksmuseum-legacy`).
    package var subtitle: String
    /// The institution the objects belong to.
    package var institution: String
    /// The source's command-line name, as written in the CSV's `source` column.
    package var sourceName: String
    package var objectCount: Int
    package var sectionCount: Int
    /// Sections in catalog order: by maker name, case and accents ignored; unknown maker last.
    package var sections: [DisplayedSection]

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
        /// The anchor GitHub-flavoured Markdown gives this section's heading.
        package var markdownAnchor: String
        /// `12 objects`.
        package var countLabel: String
        package var isUnknownMaker: Bool
        package var objects: [DisplayedObject]

        package init(
            name: String,
            slug: String,
            markdownAnchor: String,
            countLabel: String,
            isUnknownMaker: Bool,
            objects: [DisplayedObject]
        ) {
            self.name = name
            self.slug = slug
            self.markdownAnchor = markdownAnchor
            self.countLabel = countLabel
            self.isUnknownMaker = isUnknownMaker
            self.objects = objects
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
        /// Alt text for the image: title, maker and date.
        package var altText: String
        /// `http(s)` URL of the thumbnail at the requested width; empty when there is no image.
        package var thumbnailURL: String
        package var thumbnailWidth: Int
        package var thumbnailHeight: Int
        package var hasThumbnail: Bool
        /// `http(s)` URL of the full-size image; empty when there is none.
        package var imageURL: String
        /// `http(s)` URL of the museum's page; empty when there is none.
        package var objectURL: String
        package var hasObjectURL: Bool

        package init(
            id: String,
            title: String,
            maker: String,
            date: String,
            altText: String,
            thumbnailURL: String,
            thumbnailWidth: Int,
            thumbnailHeight: Int,
            imageURL: String,
            objectURL: String
        ) {
            self.id = id
            self.title = title
            self.maker = maker
            self.date = date
            self.hasDate = !date.isEmpty
            self.altText = altText
            self.thumbnailURL = thumbnailURL
            self.thumbnailWidth = thumbnailWidth
            self.thumbnailHeight = thumbnailHeight
            self.hasThumbnail = !thumbnailURL.isEmpty
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
    /// Where the catalogs went (`wrote Output/index.html, Output/catalog.md, Output/collection.csv`).
    package var written: String

    package init(warnings: [String], notices: [String], summary: String, written: String) {
        self.warnings = warnings
        self.notices = notices
        self.summary = summary
        self.written = written
    }
}
