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
                for section in part.sections {
                    // Each object read in place: `for object in` copied it, a reference count of each string.
                    let objects = part.catalog.sections[section].objects
                    for index in objects.indices {
                        CSVDisplay.appendRow(objects[index], source: source, to: &bytes)
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

    /// An object's row in `header`'s columns, ended by CRLF. Its fields are appended one by one: an array of the
    /// eight strings was an allocation and eight reference counts a row.
    static func appendRow(_ object: borrowing CatalogViewModel.DisplayedObject, source: String, to bytes: inout [UInt8])
    {
        func field(_ value: String, then end: UInt8) {
            CSVCell.append(value, to: &bytes)
            bytes.append(end)
        }
        let comma = UInt8(ascii: ",")
        field(object.id, then: comma)
        field(object.title, then: comma)
        field(object.maker, then: comma)
        field(object.date, then: comma)
        field(object.thumbnailURL, then: comma)
        field(object.imageURL, then: comma)
        field(object.objectURL, then: comma)
        field(source, then: 0x0D)
        bytes.append(0x0A)
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
                appendRow(object, source: viewModel.sourceName, to: &bytes)
            }
        }
        return bytes
    }
}
