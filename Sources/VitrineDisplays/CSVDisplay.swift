import VitrineCore
import VitrineOutput

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
                    part.catalog.sections[section].objects.forEachInPlace { object in
                        CSVDisplay.appendRow(object, source: source, to: &bytes)
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
    /// eight strings would cost an allocation and eight reference counts a row.
    static func appendRow(
        _ object: UnsafePointer<CatalogViewModel.DisplayedObject>, source: String, to bytes: inout [UInt8]
    ) {
        func field(_ value: String, then end: UInt8) {
            CSVCell.append(value, to: &bytes)
            bytes.append(end)
        }
        let comma = UInt8(ascii: ",")
        field(object.pointee.id, then: comma)
        field(object.pointee.title, then: comma)
        field(object.pointee.maker, then: comma)
        field(object.pointee.date, then: comma)
        field(object.pointee.thumbnailURL, then: comma)
        field(object.pointee.imageURL, then: comma)
        field(object.pointee.objectURL, then: comma)
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
            section.objects.forEachInPlace { appendRow($0, source: viewModel.sourceName, to: &bytes) }
        }
        return bytes
    }
}
