import VitrineCore

/// The spreadsheet: `collection.csv`, one row per object in section order, RFC 4180, UTF-8.
package struct CSVDisplay: CatalogFileDisplay {
    /// The columns other tools rely on, in this order.
    package static let header = [
        "object_id", "title", "artist", "date", "thumbnail_url", "image_url", "object_url", "source",
    ]

    package var format: CatalogFormat { .csv }

    package init() {}

    package func write(_ viewModel: CatalogViewModel, to folder: OutputFolder) throws(ExportError) {
        try folder.write(Self.render(viewModel), to: "collection.csv")
    }

    /// The whole file as text.
    package static func render(_ viewModel: CatalogViewModel) -> String {
        var text = CSVCell.row(header)
        for section in viewModel.sections {
            for object in section.objects {
                text += CSVCell.row([
                    object.id, object.title, object.maker, object.date, object.thumbnailURL, object.imageURL,
                    object.objectURL, viewModel.sourceName,
                ])
            }
        }
        return text
    }
}
