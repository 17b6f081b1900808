import VitrineCore
import VitrineOutput

/// One catalog format: writes its files into the staging output folder, a part of the catalog at a time.
package protocol CatalogFileDisplay: Sendable {
    /// The format this display writes.
    var format: CatalogFormat { get }
    /// Starts the format's files for a catalog's outline (its sections, named and counted, with no objects). The
    /// writer then takes the catalog's parts in order, and finishes.
    func start(_ outline: CatalogViewModel, in folder: OutputFolder) throws(ExportError) -> any CatalogPartWriter
}

/// A format's files under way: each part's files, then those that need the whole catalog (an index, a table of
/// contents, the search index). Parts come one at a time, in catalog order, from one thread at a time.
package protocol CatalogPartWriter: AnyObject, Sendable {
    func write(_ part: CatalogPart) async throws(ExportError)
    func finish() async throws(ExportError)
    /// Once every format has finished: writes what describes their files (the gallery's data page).
    func describe(_ files: [CatalogFile]) throws(ExportError)
}

extension CatalogPartWriter {
    package func describe(_ files: [CatalogFile]) throws(ExportError) {}
}

/// A format's finished catalog file (`collection.csv`), and its size in bytes.
package struct CatalogFile: Sendable, Equatable {
    package let format: CatalogFormat
    package let size: Int
}

/// A part of the catalog: consecutive sections with their objects.
package struct CatalogPart: Sendable {
    /// The catalog, with the objects of `sections` in place and every other section's empty.
    package let catalog: CatalogViewModel
    package let sections: Range<Int>

    package init(catalog: CatalogViewModel, sections: Range<Int>) {
        self.catalog = catalog
        self.sections = sections
    }

    /// How a catalog is cut into parts: whole when the Markdown catalog is one file; else a part per file of the
    /// split Markdown catalog (a letter's makers, at most 50,000 objects unless one maker has more).
    package static func ranges(of outline: CatalogViewModel) -> [Range<Int>] {
        guard outline.objectCount > MarkdownDisplay.splitThreshold else { return [0..<outline.sections.count] }
        return MarkdownFile.files(of: outline).map(\.sections)
    }
}

/// A file of a line (or row) per object in catalog order (`collection.csv`, `collection.jsonl`), written a megabyte at
/// a time as the parts come, so a million rows are never whole in memory.
final class RowFileWriter: CatalogPartWriter {
    /// How many bytes are gathered before they are written.
    static let piece = 1 << 20

    private let folder: OutputFolder
    private let path: String
    private let pieces: Locked<FilePieces>
    private let appendRow: @Sendable (UnsafePointer<CatalogViewModel.DisplayedObject>, inout [UInt8]) -> Void

    /// Starts the file at `path` in the staging folder with `head` (a header row, or nothing).
    init(
        folder: OutputFolder, path: String, head: [UInt8],
        appendRow: @escaping @Sendable (UnsafePointer<CatalogViewModel.DisplayedObject>, inout [UInt8]) -> Void
    ) throws(ExportError) {
        let pieces = try folder.startPieces(to: path)
        pieces.write(head)
        self.folder = folder
        self.path = path
        self.pieces = Locked(pieces)
        self.appendRow = appendRow
    }

    func write(_ part: CatalogPart) async throws(ExportError) {
        pieces.withLock { file in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Self.piece + 4_096)
            for section in part.sections {
                part.catalog.sections[section].objects.forEachInPlace { object in
                    appendRow(object, &bytes)
                    if bytes.count >= Self.piece {
                        file.write(bytes)
                        bytes.removeAll(keepingCapacity: true)
                    }
                }
            }
            file.write(bytes)
        }
    }

    func finish() async throws(ExportError) {
        try folder.finish(pieces.current, at: path)
    }
}
