import VitrineCore

/// The spreadsheet: `collection.csv`, one row per object in section order, RFC 4180, UTF-8.
package struct CSVDisplay: CatalogFileDisplay {
    /// The columns other tools rely on, in this order.
    package static let header = [
        "object_id", "title", "artist", "date", "thumbnail_url", "image_url", "object_url", "source",
    ]

    package var format: CatalogFormat { .csv }

    package init() {}

    package func start(
        _ outline: CatalogViewModel, in folder: OutputFolder
    ) throws(ExportError) -> any CatalogPartWriter {
        let pieces = try folder.startPieces(to: "collection.csv")
        var header: [UInt8] = []
        CSVCell.appendRow(Self.header, to: &header)
        pieces.write(header)
        return Writer(folder: folder, pieces: pieces, source: outline.sourceName)
    }

    /// `collection.csv` under way: each part's rows are written a megabyte at a time, so a million rows are never
    /// whole in memory.
    private final class Writer: CatalogPartWriter {
        let folder: OutputFolder
        let source: String
        private let pieces: Locked<FilePieces>

        init(folder: OutputFolder, pieces: FilePieces, source: String) {
            self.folder = folder
            self.source = source
            self.pieces = Locked(pieces)
        }

        func write(_ part: CatalogPart) throws(ExportError) {
            pieces.withLock { file in
                var bytes: [UInt8] = []
                bytes.reserveCapacity(CSVDisplay.piece + 4_096)
                for section in part.catalog.sections[part.sections] {
                    for object in section.objects {
                        CSVCell.appendRow(CSVDisplay.row(object, source: source), to: &bytes)
                        if bytes.count >= CSVDisplay.piece {
                            file.write(bytes)
                            bytes.removeAll(keepingCapacity: true)
                        }
                    }
                }
                file.write(bytes)
            }
        }

        func finish() throws(ExportError) {
            let file = pieces.current
            try folder.finish(file, at: "collection.csv")
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
