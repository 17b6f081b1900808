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
        try folder.write(Self.bytes(viewModel), to: "collection.csv")
    }

    /// The whole file as text.
    package static func render(_ viewModel: CatalogViewModel) -> String {
        String(decoding: bytes(viewModel), as: UTF8.self)
    }

    /// The whole file.
    static func bytes(_ viewModel: CatalogViewModel) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(viewModel.objectCount * 200)
        CSVCell.appendRow(header, to: &bytes)
        for section in viewModel.sections {
            for object in section.objects {
                CSVCell.appendRow(
                    [
                        object.id, object.title, object.maker, object.date, object.thumbnailURL, object.imageURL,
                        object.objectURL, viewModel.sourceName,
                    ], to: &bytes)
            }
        }
        return bytes
    }
}
