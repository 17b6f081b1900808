import CSV
import Foundation
import Logging
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineHTTP
@testable import VitrineOutput
@testable import VitrineScene
@testable import VitrineSources

/// Runs an export the way `vitrine export` wires it (registry, AsyncHTTPClient, presenter, catalog writer) into
/// a temporary folder. Retry and rate pauses are recorded, not slept.
enum ExportHarness {
    struct Run {
        var folder: TemporaryFolder
        var summary: SummaryViewModel
        var pauses: [Duration]
        /// The `wrote …` line, as the Presenter words what the catalog writer wrote.
        var written: String
    }

    /// The export runs on the test process's crowded pool: on a loaded machine an exchange can take far longer than
    /// a real server's, and a timeout's retry would log a request twice. Tests of timeouts pass their own.
    static let patientTimeouts = HTTPTimeouts(connect: 60, read: 900, request: 1800)

    static func run(
        _ configuration: SourceConfiguration,
        concurrency: Int = 4,
        maxPages: Int? = nil,
        thumbnailWidth: Int = 400,
        environment: [String: String] = [:],
        cache: FilePageCache? = nil,
        cacheMode: CacheMode = .use,
        retries: Int = 5,
        registry: SourceRegistry = .standard,
        transport: (any Transport)? = nil,
        timeouts: HTTPTimeouts = patientTimeouts,
        store: TemporaryFolder? = nil,
        full: Bool = false,
        output: TemporaryFolder? = nil,
        chains: Int? = nil,
        spareFrom: Int = OutputFolder.spareThreshold,
        site: SiteIdentity = SiteIdentity()
    ) async throws -> Run {
        let folder = try output ?? TemporaryFolder()
        let spy = CatalogDisplayLogicSpy()
        let sleeper = RecordingSleeper()
        var quietLogger = Logger(label: "vitrine.tests")
        quietLogger.logLevel = .error
        var settings = ExportSettings(
            source: configuration,
            harvest: HarvestOptions(
                maxPages: maxPages, concurrency: concurrency, retries: retries, jitter: { 0.5 }, full: full,
                chains: chains),
            outputDirectory: folder.path,
            thumbnailWidth: thumbnailWidth,
            cache: cache.map { .custom($0, mode: cacheMode) } ?? .none,
            // A page cache keeps the pages of the harvest a store records: with no store given, one beside it.
            store: store.map { .directory($0.path) } ?? cache.map { .directory($0.directory.path) } ?? .none,
            timeouts: timeouts)
        settings.spareFrom = spareFrom
        settings.site = site
        let scene = try ExportScene(
            settings,
            environment: ExportScene.Environment(
                variables: environment, http: transport, registry: registry, sleeper: sleeper,
                logger: quietLogger,
                progressDisplay: spy))
        try await scene.run()
        return Run(
            folder: folder, summary: try #require(spy.summaries.first), pauses: sleeper.pauses,
            written: spy.written.first?.line ?? "")
    }

    static func csvRows(_ text: String) throws -> [[String]] {
        let reader = try CSVReader(string: text, hasHeaderRow: true)
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        return rows
    }
}

/// Checks that all three catalogs hold every expected object exactly once, in its maker's section.
enum CatalogChecks {
    /// - parameter expected: object id → maker (`nil`: the unknown-maker section).
    static func expectEveryObjectOnce(
        in folder: TemporaryFolder, expected: [String: String?], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        // CSV: each id once, with its maker; one maker's rows side by side.
        let rows = try ExportHarness.csvRows(folder.read("collection.csv"))
        #expect(rows.count == expected.count, sourceLocation: sourceLocation)
        #expect(Set(rows.map { $0[0] }) == Set(expected.keys), sourceLocation: sourceLocation)
        for row in rows {
            #expect(row[2] == (expected[row[0]] ?? nil) ?? "", "\(row[0])", sourceLocation: sourceLocation)
        }
        let makers = rows.map { $0[2] }
        let runs = makers.enumerated().filter { $0.offset == 0 || makers[$0.offset - 1] != $0.element }.map(\.element)
        #expect(runs.count == Set(makers).count, "a maker's rows are split", sourceLocation: sourceLocation)

        // HTML: each card once, on the pages of its maker's section (and, for a small catalog, on the index).
        let artists = folder.url.appendingPathComponent("artists")
        let html = try FileManager.default.contentsOfDirectory(atPath: artists.path)
            .sorted().map { try folder.read("artists/\($0)") }.joined()
        var section: [String: String] = [:]
        for chunk in html.components(separatedBy: "data-artist=\"").dropFirst() {
            let name = String(chunk.prefix { $0 != "\"" })
            for card in chunk.components(separatedBy: "data-object-id=\"").dropFirst() {
                let id = String(card.prefix { $0 != "\"" })
                #expect(section[id] == nil, "\(id) twice", sourceLocation: sourceLocation)
                section[id] = name
            }
        }
        #expect(section.count == expected.count, sourceLocation: sourceLocation)
        for (id, maker) in expected {
            let name = section[id].map(Self.unescapeHTML)
            #expect(name == (maker ?? "Unknown artist"), "\(id)", sourceLocation: sourceLocation)
        }

        // Markdown: each object line once, under its maker's heading.
        var heading = ""
        var underHeading: [String: String] = [:]
        for line in try folder.read("catalog.md").split(separator: "\n") {
            if line.hasPrefix("## ") { heading = String(line.dropFirst(3)) }
            guard line.hasPrefix("- "), heading != "Contents", let dot = line.range(of: " · ", options: .backwards)
            else { continue }
            let id = String(line[dot.upperBound...]).replacingOccurrences(of: "\\", with: "")
            #expect(underHeading[id] == nil, "\(id) twice in Markdown", sourceLocation: sourceLocation)
            underHeading[id] = heading
        }
        #expect(underHeading.count == expected.count, sourceLocation: sourceLocation)
        for (id, maker) in expected {
            #expect(underHeading[id] == (maker ?? "Unknown artist"), "\(id)", sourceLocation: sourceLocation)
        }
    }

    private static func unescapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The CSV row of `id`.
    static func row(_ id: String, in folder: TemporaryFolder) throws -> [String]? {
        try ExportHarness.csvRows(folder.read("collection.csv")).first { $0[0] == id }
    }
}

extension CatalogChecks {
    /// Every file of two output folders, by relative path and bytes: an incremental run must write exactly what a
    /// fresh export writes, and neither publishes a file of Vitrine's own (its records are beside the folder).
    static func expectIdenticalFolders(
        _ first: TemporaryFolder, _ second: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (left, right) = (try files(in: first.url), try files(in: second.url))
        let own = (Array(left.keys) + Array(right.keys)).filter { $0.contains("/.vitrine") }
        #expect(own.isEmpty, "published: \(own.prefix(3))", sourceLocation: sourceLocation)
        #expect(left.keys.sorted() == right.keys.sorted(), sourceLocation: sourceLocation)
        #expect(left.count > 10, sourceLocation: sourceLocation)
        for (path, data) in left where right[path] != data {
            // The first line that differs, so a failure says what.
            let lines = (String(decoding: data, as: UTF8.self), String(decoding: right[path] ?? Data(), as: UTF8.self))
            let first = zip(lines.0.split(separator: "\n"), lines.1.split(separator: "\n")).first { $0 != $1 }
            Issue.record(
                "\(path) differs: \(first.map { "\($0.0.prefix(300)) | \($0.1.prefix(300))" } ?? "in length")",
                sourceLocation: sourceLocation)
        }
    }

    /// Relative path → contents of every regular file under `folder`.
    static func files(in folder: URL) throws -> [String: Data] {
        try TemporaryFolder.files(in: folder)
    }
}

extension SourceRegistry {
    /// The registry with one more source.
    func adding(_ registration: SourceRegistration) -> SourceRegistry {
        SourceRegistry(registrations + [registration])
    }
}
