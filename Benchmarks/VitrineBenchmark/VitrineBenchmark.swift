import Foundation
import VitrineCore
import VitrineMockMuseum
import VitrineOAIPMH
import VitrineOutput
import VitrineScene
import VitrineSources

/// `swift run -c release vitrine-benchmark`: harvests from the mock museum with latency and prints each figure
/// as measured against the ideal the network allows. Not a test: figures depend on the machine.
@main
struct VitrineBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        // A figure's arguments are numbers (`serve` and `parse` take a word first): anything else, `--help` among
        // them, is a mistake, and a mistaken figure would still run for minutes.
        let numbers = arguments.dropFirst(["serve", "parse", "adopt-records"].contains(arguments.first) ? 2 : 1)
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) || !numbers.allSatisfy({ Int($0) != nil }) {
            FileHandle.standardError.write(Data(Self.usage.utf8))
            exit(arguments.contains { $0 == "--help" || $0 == "-h" } ? 0 : 64)
        }
        if arguments.first == "serve" {
            try await serve(Array(arguments.dropFirst()))
            return
        }
        // `adopt-records SITE`: a site copied back with its spare and records beside it (a benchmark's starting
        // point, restored before each timed night) has them as its own again, as before the copy.
        if arguments.first == "adopt-records", let path = arguments.dropFirst().first {
            let site = OutputFolder.destination(path)
            for catalog in [site, OutputFolder.spareURL(of: site)] {
                CatalogRecords.adoptCopy(of: catalog.path, output: site)
            }
            return
        }
        if arguments.first == "throughput" {
            let missed = try await throughput(records: arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000)
            if missed > 0 { exit(1) }
            return
        }
        if arguments.first == "markdown" {
            exit(
                Int32(
                    try await RenderBenchmark.markdown(
                        objects: arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000))
            )
        }
        if arguments.first == "parse" {
            try parse(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "windows" {
            let missed = try await windows(records: arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000)
            if missed > 0 { exit(1) }
            return
        }
        if arguments.first == "store" {
            let missed = try StoreBenchmark.insert(objects: arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000)
            if missed > 0 { exit(1) }
            return
        }
        if arguments.first == "collection" {
            let records = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
            let missed = try await StoreBenchmark.collection(records: records)
            if missed > 0 { exit(1) }
            return
        }
        if arguments.first == "incremental" {
            let records = arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
            let latency = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 0
            let rounds = arguments.dropFirst(3).first.flatMap { Int($0) } ?? 1
            let missed = try await StoreBenchmark.incremental(records: records, latency: latency, rounds: rounds)
            if missed > 0 { exit(1) }
            return
        }
        // Anything else is a mistake (`--help` included): the whole run takes minutes and a gigabyte of /tmp.
        guard arguments.isEmpty || arguments == ["all"] else {
            FileHandle.standardError.write(Data(Self.usage.utf8))
            exit(arguments.first == "--help" || arguments.first == "-h" ? 0 : 64)
        }
        print("Vitrine \(VitrineVersion.current) benchmark, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        var missed = 0

        // 1. Page numbers: 40 pages of 100 at 100 ms, 8 at once. Ideal: 40 / 8 × 100 ms.
        let aic = try await MockMuseum.artInstitute(ArtInstituteCollection(count: 4_000, movingRecord: false))
        await aic.setFaults(MockFaults(latency: .milliseconds(100), cacheResponses: true))
        missed += try await measure(
            "page numbers: 40 pages × 100 objects at 100 ms, concurrency 8",
            SourceConfiguration(source: .aic, baseURL: aic.artInstituteBaseURL, pageSize: 100),
            concurrency: 8, ideal: 0.5, target: 1.2, expectedObjects: 4_000)
        await aic.stop()

        // 2. The Met: 800 objects at 20 ms, 8 at once, no rate ceiling. Ideal: 800 / 8 × 20 ms.
        let met = try await MockMuseum.met(MetCollection(count: 800, missingEvery: 0))
        await met.setFaults(MockFaults(latency: .milliseconds(20), cacheResponses: true))
        missed += try await measure(
            "id list: 800 Met objects at 20 ms, concurrency 8, no rate ceiling",
            SourceConfiguration(source: .met, baseURL: met.metBaseURL),
            concurrency: 8, ideal: 2.0, target: 1.3, expectedObjects: 800)
        await met.stop()

        // 3. OAI-PMH: 40 pages of 50 at 50 ms, one after another by protocol. Ideal: 40 × 50 ms.
        let oai = try await MockMuseum.oaiPMH(OAICollection(count: 2_000, pageSize: 50, deletedEvery: 0))
        await oai.setFaults(MockFaults(latency: .milliseconds(50), cacheResponses: true))
        missed += try await measure(
            "token chain: 40 OAI-PMH pages × 50 records at 50 ms, one chain (--chains 1)",
            SourceConfiguration(source: .rijksmuseum, baseURL: oai.oaiBaseURL),
            concurrency: 8, ideal: 2.0, target: 1.1, expectedObjects: 2_000, chains: 1)
        await oai.stop()

        // 4. Throughput: 100 000 OAI-PMH records, no latency, the whole `vitrine export` in a process of its own.
        missed += try await throughput(records: 100_000)

        // 5. The collection store: inserts against the harvest's rate; a night's 1% change against a full run.
        missed += try StoreBenchmark.insert(objects: 100_000)
        missed += try await StoreBenchmark.incremental(records: 100_000)

        print(missed == 0 ? "all targets met" : "\(missed) target(s) missed")
        if missed > 0 { exit(1) }
    }

    static let usage = """
        usage: vitrine-benchmark [all]              every figure (minutes; writes into $TMPDIR)
               vitrine-benchmark throughput [records] | windows [records] | store [objects] | markdown [objects]
               vitrine-benchmark collection [records] | incremental [records] [latency-ms] [rounds]
               vitrine-benchmark serve oai|aic|met|unsplash|legacy [count] [latency-ms] [generation [port]]
               vitrine-benchmark parse FILE [rounds] | adopt-records SITE

        """

    /// `vitrine-benchmark serve oai|aic|met|unsplash|legacy [count] [latency-ms] [generation [port]]`: a mock museum
    /// to point `vitrine export --base-url` at by hand, until interrupted. With a generation, `oai` serves the museum
    /// of `incremental` after that many nights' changes (0: as the full run found it), on `port` if given (the
    /// collection store is kept per base URL), to time one night on its own.
    private static func serve(_ arguments: [String]) async throws {
        let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000
        let latency = Duration.milliseconds(arguments.dropFirst(2).first.flatMap { Int($0) } ?? 0)
        let generation = arguments.dropFirst(3).first.flatMap { Int($0) }
        let port = arguments.dropFirst(4).first.flatMap { Int($0) } ?? 0
        var faults = MockFaults(latency: latency, cacheResponses: true)
        let museum: MockMuseum
        let base: String
        switch arguments.first ?? "oai" {
        case "aic":
            museum = try await .artInstitute(ArtInstituteCollection(count: count))
            base = museum.artInstituteBaseURL
        case "met":
            museum = try await .met(MetCollection(count: count))
            base = museum.metBaseURL
        case "unsplash":
            museum = try await .unsplash(UnsplashCollection(count: count))
            base = museum.unsplashBaseURL + "  (key: demo-access-key)"
        case "legacy":
            museum = try await .rijksmuseumLegacy(.generated(count: count))
            base = museum.legacyBaseURL
        default:
            if let generation {
                museum = try await .oaiPMH(StoreBenchmark.changingCollection(records: count), port: port)
                faults.museumGeneration = generation
            } else {
                museum = try await .oaiPMH(OAICollection(count: count))
            }
            base = museum.oaiBaseURL
        }
        museum.prepare(generation: faults.museumGeneration)
        await museum.setFaults(faults)
        FileHandle.standardOutput.write(Data("mock museum: \(base)\n".utf8))
        while true { try await Task.sleep(for: .seconds(3_600)) }
    }

    /// `vitrine-benchmark parse FILE [rounds]`: parses and maps one saved OAI-PMH page over and over on one core
    /// and prints records/s: the CPU cost of reading records, without the network.
    private static func parse(_ arguments: [String]) throws {
        guard let path = arguments.first else {
            print("usage: vitrine-benchmark parse FILE [rounds]")
            return
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let rounds = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000
        let mapper = OAIRecordMapper(language: "en")
        let clock = ContinuousClock()
        let start = clock.now
        var records = 0
        for _ in 0..<rounds {
            let page = try OAIPMHPageParser.parse(data, mapper: mapper)
            for outcome in page.outcomes {
                if case .object = outcome { records += 1 }
            }
        }
        let elapsed = seconds(clock.now - start)
        print(
            "parse and map: \(records) records in \(format(elapsed)) s = \(Int(Double(records) / elapsed)) records/s on one core"
        )
    }

    /// Harvests once to warm up, then three times; reports the best and the median against the ideal, and
    /// judges the target on the median.
    private static func measure(
        _ name: String, _ configuration: SourceConfiguration, concurrency: Int, ideal: Double, target: Double,
        expectedObjects: Int, chains: Int? = nil
    ) async throws -> Int {
        let options = HarvestOptions(concurrency: concurrency, requestsPerSecond: 0, chains: chains)
        guard let times = try await harvestTimes(configuration, options: options, expectedObjects: expectedObjects)
        else {
            print("\(name): the harvest did not read the \(expectedObjects) objects expected")
            return 1
        }
        let ratio = times.median / ideal
        let met = ratio <= target
        print(
            "\(name): \(format(times.median)) s measured (best \(format(times.best))) / \(format(ideal)) s ideal = "
                + "\(format(ratio))× (target ≤ \(format(target))×) \(met ? "met" : "MISSED")")
        return met ? 0 : 1
    }

    /// `vitrine-benchmark windows [N]`: N OAI-PMH records with bunched datestamps (a bulk-load day, two years,
    /// 10% in one second), 50 a page at 50 ms: one chain (`--chains 1`) against `--concurrency 8`.
    private static func windows(records: Int) async throws -> Int {
        var collection = OAICollection(count: records, pageSize: 50, deletedEvery: 0)
        collection.skewedDatestamps = true
        let oai = try await MockMuseum.oaiPMH(collection)
        defer { Task { await oai.stop() } }
        await oai.setFaults(MockFaults(latency: .milliseconds(50), cacheResponses: true))
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: oai.oaiBaseURL)
        guard
            let serial = try await harvestTimes(
                configuration, options: HarvestOptions(concurrency: 8, requestsPerSecond: 0, chains: 1),
                expectedObjects: records, rounds: 1),
            let windowed = try await harvestTimes(
                configuration, options: HarvestOptions(concurrency: 8, requestsPerSecond: 0),
                expectedObjects: records, rounds: 1)
        else {
            print("windows: a harvest did not read the \(records) objects expected")
            return 1
        }
        let pages = (records + 49) / 50
        let chain = Double(pages) * 0.05
        // The limit: the pages spread over 8 chains, or the biggest window that cannot be split (the 10% that
        // share one second), whichever is longer.
        let limit = Double(max(pages / 8, (records / 10 + 49) / 50)) * 0.05
        let ratio = windowed.median / serial.median
        let met = ratio <= 0.25
        print(
            "windows: \(records) records, 50 a page at 50 ms: one chain \(format(serial.median)) s "
                + "(pages × latency \(format(chain)) s), 8 windows at once \(format(windowed.median)) s "
                + "(limit \(format(limit)) s) = \(format(ratio * 100))% of one chain (target ≤ 25%) \(met ? "met" : "MISSED")"
        )
        return met ? 0 : 1
    }

    /// Times whole harvests through the real HTTP transport: one to warm up, then `rounds`. `nil` when a harvest
    /// reads another number of objects than expected.
    private static func harvestTimes(
        _ configuration: SourceConfiguration, options: HarvestOptions, expectedObjects: Int, rounds: Int = 3
    ) async throws -> (best: Double, median: Double)? {
        var times: [Double] = []
        for round in 0...rounds {
            // Wired as `vitrine export` wires it; only the harvest is timed, nothing is written.
            let scene = try ExportScene(
                ExportSettings(source: configuration, harvest: options),
                environment: ExportScene.Environment(variables: [:], progressDisplay: NoProgress()))
            let clock = ContinuousClock()
            let start = clock.now
            let response = try await scene.interactor.harvest(options: scene.request.harvest)
            let elapsed = seconds(clock.now - start)
            guard response.statistics.objects == expectedObjects else { return nil }
            if round > 0 { times.append(elapsed) }
        }
        times.sort()
        return (times[0], times[times.count / 2])
    }

    /// The harvest's objects per second, timed in this process as the other figures are (best and median of
    /// three); then the whole `vitrine export` with all three catalogs in a process of its own, for its time and
    /// peak memory. The mock has every page generated and kept beforehand, so the figures are Vitrine's, not the
    /// mock's.
    private static func throughput(records: Int) async throws -> Int {
        let oai = try await MockMuseum.oaiPMH(OAICollection(count: records, pageSize: 50, deletedEvery: 0))
        defer { Task { await oai.stop() } }
        await oai.setFaults(MockFaults(cacheResponses: true))
        let configuration = SourceConfiguration(source: .rijksmuseum, baseURL: oai.oaiBaseURL)
        guard let times = try await harvestTimes(configuration, options: HarvestOptions(), expectedObjects: records)
        else {
            print("throughput: the harvest did not read the \(records) objects expected")
            return 1
        }
        let rate = Double(records) / times.median
        let met = rate >= 50_000
        print(
            "throughput: \(records) OAI-PMH records (EDM, 50 a page), no latency: harvest \(format(times.median)) s "
                + "= \(Int(rate)) objects/s (best \(format(times.best)) s = \(Int(Double(records) / times.best))) "
                + "(target ≥ 50000) \(met ? "met" : "MISSED")")

        // `VITRINE_OUTPUT_ROOT=/dev/shm` measures the export without the disk's file system.
        let root =
            ProcessInfo.processInfo.environment["VITRINE_OUTPUT_ROOT"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
        let output = root.appendingPathComponent("vitrine-benchmark-\(getpid())")
        let floor = root.appendingPathComponent("vitrine-benchmark-files-\(getpid())")
        defer {
            // The output folder's lock is beside it.
            for folder in [output, floor, root.appendingPathComponent(".\(output.lastPathComponent).vitrine-lock")] {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        let export = try await VitrineProcess.run([
            "export", "--source", "rijksmuseum", "--base-url", oai.oaiBaseURL, "--no-cache", "--quiet",
            "--output", output.path,
        ])
        let wholeRate = Double(records) / export.seconds
        let wholeMet = wholeRate >= 20_000 && export.peakMB <= 300
        print(
            "whole export (vitrine export, all three catalogs, own process, GNU time) into \(root.path): "
                + "\(format(export.seconds)) s = \(Int(wholeRate)) objects/s; peak memory \(export.peakMB) MB "
                + "(target ≥ 20000 objects/s, ≤ 300 MB) \(wholeMet ? "met" : "MISSED")")
        print("  \(export.summary)")
        // What the file system alone costs: the same number of files of the same sizes, written by one thread
        // with open/write/close and nothing else.
        let (files, bytes, seconds) = try fileSystemFloor(copying: output, into: floor)
        print(
            "  the file system alone: \(files) files, \(bytes / 1_000_000) MB written by one thread in "
                + "\(format(seconds)) s")
        return met && export.status == 0 ? 0 : 1
    }

    /// Writes as many files, of the same sizes, as `folder` holds, into `target`, and times it.
    private static func fileSystemFloor(copying folder: URL, into target: URL) throws -> (Int, Int, Double) {
        var sizes: [(String, Int)] = []
        let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            guard values.isRegularFile == true else { continue }
            sizes.append((String(url.path.dropFirst(folder.path.count)), values.fileSize ?? 0))
        }
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: sizes.map(\.1).max() ?? 0)
        let clock = ContinuousClock()
        let start = clock.now
        var folders: Set<String> = []
        for (path, size) in sizes {
            let file = target.path + path
            let parent = (file as NSString).deletingLastPathComponent
            if folders.insert(parent).inserted {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            }
            let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { continue }
            _ = block.withUnsafeBytes { write(descriptor, $0.baseAddress, size) }
            close(descriptor)
        }
        return (sizes.count, sizes.reduce(0) { $0 + $1.1 }, seconds(clock.now - start))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}

/// The benchmark prints its own figures; the harvest's progress lines are not shown.
struct NoProgress: ProgressDisplayLogic {
    func displayProgress(line: String) {}
    func displaySummary(viewModel: SummaryViewModel) {}
    func displayWritten(_ viewModel: WrittenViewModel) {}
    func displayWarning(_ line: String) {}
}
