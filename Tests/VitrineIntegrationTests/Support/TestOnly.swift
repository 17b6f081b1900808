import VitrineCore

@testable import VitrineDisplays
@testable import VitrineOutput

// Shortcuts these tests take, which an export never does.

extension [any CatalogFileDisplay] {
    /// Writes every format's files for a view model whose objects are all in place, as one part.
    func write(_ viewModel: CatalogViewModel, to folder: OutputFolder) async throws(ExportError) {
        let writers = try map { display throws(ExportError) in try display.start(viewModel, in: folder) }
        for writer in writers {
            try await writer.write(CatalogPart(catalog: viewModel, sections: 0..<viewModel.sections.count))
            try await writer.finish()
        }
        try CatalogSession.describe(map(\.format), by: writers, in: folder)
    }
}

extension SearchIndex {
    /// The index of a catalog whose objects are all in place.
    init(_ viewModel: CatalogViewModel) async throws(ExportError) {
        self.init()
        try add(viewModel, sections: viewModel.sections.indices)
        try await finish()
    }
}

extension PathHashTable where Value == Void {
    func contains(_ path: String) -> Bool {
        self[path] != nil
    }
}

extension OutputFolder {
    /// Writes a file piece by piece (`body` hands `FilePieces` its bytes). When the bytes come out the same as the
    /// last export's file, that file is kept instead, as `write` keeps one.
    func write(to relativePath: String, inPieces body: (FilePieces) throws(ExportError) -> Void) throws(ExportError) {
        let pieces = try startPieces(to: relativePath)
        do {
            try body(pieces)
        } catch {
            pieces.finish()
            throw error
        }
        try finish(pieces, at: relativePath)
    }
}

extension OutputFolder {
    /// `OutputFolder(path:…)` asked again while its lock is held by a process another test is starting: a child
    /// holds a copy of every open descriptor, another test's lock among them, until it execs.
    static func opened(
        path: String, force: Bool = false, keepsSpareFrom: Int = OutputFolder.spareThreshold
    ) async throws -> OutputFolder {
        for _ in 0..<200 {
            do throws(ExportError) {
                return try OutputFolder(path: path, force: force, keepsSpareFrom: keepsSpareFrom)
            } catch {
                guard error.description.hasPrefix("another vitrine export is writing") else { throw error }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try OutputFolder(path: path, force: force, keepsSpareFrom: keepsSpareFrom)
    }
}
