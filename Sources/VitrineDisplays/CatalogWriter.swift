import Foundation
import VitrineCore
import VitrineOutput

/// Writes every requested format into a staging folder, then moves them into place together: the
/// `CatalogDisplayLogic` the Presenter talks to.
package struct CatalogWriter: CatalogDisplayLogic {
    package let outputDirectory: String
    package let displays: [any CatalogFileDisplay]
    /// Replace files in the way even when Vitrine did not write them (`--force`).
    package let force: Bool
    /// Remove the files of formats this run does not write (`--remove-other-formats`); else they stay as they are.
    package let removeOtherFormats: Bool
    /// A catalog of at least this many files keeps its old version as the next export's staging folder.
    package let spareFrom: Int
    /// The bytes of a bundled file the catalogs show (the demo's pictures), by its path in the output folder.
    package let bundledFile: @Sendable (String) -> [UInt8]?
    /// The output folder, when `openOutputFolder` opened it as the export started.
    private let opening = Locked<OutputFolder.Opening?>(nil)
    /// The catalog between `displayStart` and `displayEnd`.
    private let session = Locked<CatalogSession?>(nil)

    package init(
        outputDirectory: String, displays: [any CatalogFileDisplay], force: Bool = false,
        removeOtherFormats: Bool = false, spareFrom: Int = OutputFolder.spareThreshold,
        bundledFile: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }
    ) {
        self.outputDirectory = outputDirectory
        self.displays = displays
        self.force = force
        self.removeOtherFormats = removeOtherFormats
        self.spareFrom = spareFrom
        self.bundledFile = bundledFile
    }

    /// The displays for a set of formats, in the order given.
    package init(
        outputDirectory: String, formats: [CatalogFormat], templates: TemplateLibrary,
        cardsPerPage: Int = ArtistPageNames.defaultCardsPerPage, force: Bool = false, removeOtherFormats: Bool = false,
        spareFrom: Int = OutputFolder.spareThreshold,
        bundledFile: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }
    ) {
        let displays: [any CatalogFileDisplay] = formats.map { format in
            switch format {
            case .html: HTMLDisplay(templates: templates, cardsPerPage: cardsPerPage)
            case .markdown: MarkdownDisplay(templates: templates, cardsPerPage: cardsPerPage)
            case .csv: CSVDisplay()
            case .jsonl: JSONLinesDisplay()
            }
        }
        self.init(
            outputDirectory: outputDirectory, displays: displays, force: force,
            removeOtherFormats: removeOtherFormats, spareFrom: spareFrom,
            bundledFile: bundledFile)
    }

    /// Refuses an `--output` that must not be replaced whole, before the harvest. Opens the output folder now, when
    /// it holds a catalog (its manifest is there): takes its lock, so that a folder another export is writing into
    /// stops this one before it harvests anything, and reads its manifests while the harvest runs. A folder with no
    /// catalog yet is left as it is until the catalog is written, so that a failed harvest leaves nothing behind.
    package func openOutputFolder() throws(ExportError) {
        let destination = OutputFolder.destination(outputDirectory)
        try OutputFolder.refuseChoice(destination)
        guard OutputFolder.holdsCatalog(destination) else { return }
        let opened = try OutputFolder.Opening(destination)
        opening.withLock { $0 = opened }
    }

    package func displayStart(_ outline: CatalogViewModel) async throws {
        // The gallery writes a page per object, a page per 200 cards and the search shards; the rest a few files.
        let perObject = displays.contains { $0.format == .html } ? outline.objectCount * 51 / 50 : 0
        await displayAbandoned()
        let opened = opening.withLock { opening in
            defer { opening = nil }
            return opening
        }
        await opened?.manifestsRead()
        let folder = try OutputFolder(
            path: outputDirectory, force: force, expectedFiles: perObject + 1_000, keepsSpareFrom: spareFrom,
            opening: opened)
        let started = CatalogSession(outline: outline, folder: folder, displays: displays)
        session.withLock { $0 = started }
    }

    package func displayPart(_ objects: consuming [[CatalogViewModel.DisplayedObject]]) async throws {
        try await current().take(consume objects)
    }

    package func displayEnd() async throws -> WrittenCatalog {
        let ending = try current()
        session.withLock { $0 = nil }
        do {
            try await ending.finish()
            let folder = ending.folder
            // The pictures the catalogs link to relatively, written beside them.
            for path in ending.outline.bundledFiles {
                guard let bytes = bundledFile(path) else {
                    throw ExportError(.output("the source has no file \(path), which its objects show"))
                }
                try folder.write(Data(bytes), to: path)
            }
            let counts = folder.counts
            var written = WrittenCatalog(
                paths: try await folder.commit(
                    displayRoot: outputDirectory, otherFormat: otherFormat, keepingOtherFormats: !removeOtherFormats),
                rendered: counts.rendered, kept: counts.kept)
            written.notices = folder.notices
            written.copied = folder.copiedFragments
            return written
        } catch {
            await ending.abandon()
            throw error
        }
    }

    package func displayAbandoned() async {
        let abandoned = session.withLock { session in
            defer { session = nil }
            return session
        }
        await abandoned?.abandon()
    }

    /// The catalog under way.
    private func current() throws(ExportError) -> CatalogSession {
        guard let current = session.current else {
            throw ExportError(.output("a part of the catalog came before its start"))
        }
        return current
    }

    /// The top-level entries each format writes.
    static let entries: [CatalogFormat: Set<String>] = [
        .html: [
            "index.html", "assets", "artists", "objects", "letters", "search", "data.html", "sitemap.xml", "sitemaps",
            "robots.txt", "types.html", "types", "periods.html", "periods",
        ],
        .markdown: ["catalog.md", "catalog"],
        .csv: ["collection.csv"],
        .jsonl: ["collection.jsonl"],
    ]

    /// Whether a top-level entry belongs to a format this run does not write.
    private func otherFormat(_ entry: String) -> Bool {
        guard let format = Self.entries.first(where: { $0.value.contains(entry) })?.key else { return false }
        return !displays.contains { $0.format == format }
    }
}
