import VitrineCore

/// The spreadsheet: `collection.csv`, one row per object in section order, RFC 4180, UTF-8.
package struct CSVDisplay: CatalogFileDisplay {
    /// The columns other tools rely on, in this order.
    package static let header = [
        "object_id", "title", "artist", "date", "thumbnail_url", "image_url", "object_url", "source",
    ]

    package var format: CatalogFormat { .csv }

    package init() {}

    package func write(
        _ viewModel: CatalogViewModel, names: SharedNames, to folder: OutputFolder
    ) throws(ExportError) {
        // Written a megabyte at a time: a million rows are never whole in memory.
        try folder.write(to: "collection.csv") { file in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Self.piece + 4_096)
            CSVCell.appendRow(Self.header, to: &bytes)
            for section in viewModel.sections {
                for object in section.objects {
                    CSVCell.appendRow(Self.row(object, source: viewModel.sourceName), to: &bytes)
                    if bytes.count >= Self.piece {
                        file.write(bytes)
                        bytes.removeAll(keepingCapacity: true)
                    }
                }
            }
            file.write(bytes)
        }
    }

    /// How many bytes are gathered before they are written.
    static let piece = 1 << 20

    static func row(_ object: CatalogViewModel.DisplayedObject, source: String) -> [String] {
        [
            object.id, object.title, object.maker, object.date, object.thumbnailURL, object.imageURL,
            object.objectURL, source,
        ]
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
                CSVCell.appendRow(row(object, source: viewModel.sourceName), to: &bytes)
            }
        }
        return bytes
    }
}
