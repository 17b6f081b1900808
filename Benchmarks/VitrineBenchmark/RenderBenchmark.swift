import Foundation
import VitrineCore
import VitrineDisplays
import VitrineTestSupport

/// The Markdown catalog's rendering speed, in-process: a 100,000-object catalog (1,000 makers, titles and
/// dates like the Rijksmuseum's, IIIF images) written by the Markdown display into a fresh folder, median of
/// three. The catalog is split into a file per letter past 5,000 objects, so the files are few and the figure is
/// the renderer's.
enum RenderBenchmark {
    static func markdown(objects: Int) async throws -> Int {
        let makers = max(1, objects / 100)
        let sections = (0..<makers).map { maker in
            let name = "Maker \(String(UnicodeScalar(UInt8(65 + maker % 26)))) number \(maker)"
            return ArtistSection(
                maker: name,
                objects: (0..<(objects / makers)).map { number in
                    let id = "SK-A-\(maker * 1_000 + number)"
                    return ArtObject(
                        id: id, title: "Portrait of a woman, probably the wife of \(name), study \(number)",
                        maker: name, date: "c. \(1600 + number % 100)",
                        image: ImageReference(
                            url: "https://iiif.micr.io/\(id)/full/max/0/default.jpg", width: 4_000, height: 3_000,
                            sizing: .iiif(service: "https://iiif.micr.io/\(id)", cachedWidths: [])),
                        objectURL: "https://www.rijksmuseum.nl/en/collection/\(id)")
                })
        }
        let root =
            ProcessInfo.processInfo.environment["VITRINE_OUTPUT_ROOT"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
        let output = root.appendingPathComponent("vitrine-markdown-\(getpid())")
        defer {
            // The output folder's lock is beside it.
            for folder in [output, root.appendingPathComponent(".\(output.lastPathComponent).vitrine-lock")] {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        let writer = CatalogWriter(outputDirectory: output.path, formats: [.markdown], templates: try TemplateLibrary())
        let presenter = ExportPresenter(thumbnailWidth: 400, catalogDisplay: writer, progressDisplay: NoProgress())
        let viewModel = try await presenter.makeViewModel(
            response: HarvestedCollection(
                source: SourceDescriptor(
                    name: "benchmark", institution: "Benchmark", defaultBaseURL: "", paging: "", keyVariable: nil,
                    filters: [], summary: ""),
                sections: sections, statistics: ExportStatistics()))
        var times: [Double] = []
        for _ in 0..<3 {
            try? FileManager.default.removeItem(at: output)
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await writer.displayCatalog(viewModel: viewModel)
            times.append(VitrineBenchmark.seconds(clock.now - start))
        }
        var bytes = 0
        let walker = FileManager.default.enumerator(at: output, includingPropertiesForKeys: [.fileSizeKey])
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "md" else { continue }
            bytes += (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        let median = times.sorted()[1]
        let rate = Double(bytes) / 1_000_000 / median
        let met = rate >= 100
        print(
            "markdown: \(objects) objects, \(bytes / 1_000_000) MB of Markdown in \(VitrineBenchmark.format(median)) s "
                + "= \(Int(rate)) MB/s, in-process (target ≥ 100 MB/s) \(met ? "met" : "MISSED")")
        return met ? 0 : 1
    }
}
