/// One object of a collection, as every source maps it: the common shape the Interactor groups.
package struct ArtObject: Sendable, Equatable {
    /// The museum's own identifier (object number, accession number, photo id).
    package var id: String
    /// The title, as the source gives it.
    package var title: String
    /// The maker's display name; `nil` or blank when the source names no maker.
    package var maker: String?
    /// The date as the museum writes it (`1642`, `c. 1665 - c. 1670`).
    package var date: String?
    /// The object's image and how to size it; `nil` when there is none.
    package var image: ImageReference?
    /// The museum's web page for the object.
    package var objectURL: String?
    /// The record's unique identifier where it is not `id` (OAI-PMH: the header identifier, unique by protocol,
    /// while `id` is the object number a reader sees). Repeated records are told by it.
    package var recordID: String?
    /// When the source last changed the record, as it writes it (OAI-PMH: the header's `datestamp`, UTC);
    /// `nil` where the API has none. Of two records with one identifier the later one is kept.
    package var datestamp: String?
    /// Everything else the source tells about it (description, materials, rights…).
    package var details: ObjectDetails

    /// The version of how sources read records into objects (and order and file them): a store keeps objects as
    /// one version read them, and harvests every record again when it changes, so a night equals a fresh export.
    /// A test over every fixture asks for a new number when what they read to changes.
    package static let readingVersion = 20

    /// What tells two records apart: `recordID`, else `id`; compared byte for byte (see `ExactText`).
    package var recordKey: ExactText { ExactText(recordID ?? id) }

    package init(
        id: String,
        title: String,
        maker: String? = nil,
        date: String? = nil,
        image: ImageReference? = nil,
        objectURL: String? = nil,
        recordID: String? = nil,
        datestamp: String? = nil,
        details: ObjectDetails = ObjectDetails()
    ) {
        self.id = id
        self.title = title
        self.maker = maker
        self.date = date
        self.image = image
        self.objectURL = objectURL
        self.recordID = recordID
        self.datestamp = datestamp
        self.details = details
    }
}

/// Text compared and hashed by its exact UTF-8 bytes. Swift's `String ==` treats canonically equivalent text as
/// equal, so `café` spelt with a precomposed é (NFC) and with e + combining accent (NFD) would be one id; two
/// records whose ids differ only so are two records, and both are kept.
package struct ExactText: Hashable, Sendable {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }

    package static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
