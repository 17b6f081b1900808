import Foundation
import Testing
import VitrineCore
import VitrineMockMuseum
import VitrineTestSupport

/// Runs the built `vitrine` binary: exit status, the stderr summary and the one-line error.
@Suite struct CommandLineTests {
    /// The binary SwiftPM built beside the test bundle.
    private static var binary: URL {
        var folder = Bundle.main.bundleURL
        while folder.path != "/"
            && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("vitrine").path)
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("vitrine")
    }

    private struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary on a thread of its own: waiting for it must not hold a thread of the concurrency pool,
    /// which the loopback mock in this process needs to answer the binary's requests.
    /// - parameter directory: the working folder (where `vitrine.yaml` is looked for); the tests' own by default.
    private func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil)
        async throws -> Result
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Swift.Result {
                        try Self.runBlocking(arguments, environment: environment, directory: directory)
                    })
            }
        }
    }

    private static func runBlocking(_ arguments: [String], environment: [String: String], directory: URL?) throws
        -> Result
    {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        // The user's page cache and collection stores are never touched: each run gets a cache folder of its own.
        let cacheHome = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vitrine-cli-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 }
            .merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is read on another thread, so neither pipe can fill up and stall the binary.
        let stderrData = LockedData()
        let stderrRead = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            stderrData.set(err.fileHandleForReading.readDataToEndOfFile())
            stderrRead.signal()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        stderrRead.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderrData.get(), as: UTF8.self))
    }

    @Test func `vitrine export writes the demo catalogs and ends with the summary line`() async throws {
        let output = try TemporaryFolder()
        let result = try await run(["export", "--output", output.path])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.last?.hasPrefix("vitrine: demo: 14 pages, 320 objects, 33 sections, 1 duplicate, 0 skipped, ") == true
        )
        for file in ["index.html", "catalog.md", "collection.csv", "assets/style.css"] {
            #expect(FileManager.default.fileExists(atPath: output.url.appendingPathComponent(file).path))
        }
    }

    @Test func `a failure exits non-zero with one line on stderr, and no key in it`() async throws {
        let museum = try await MockMuseum.rijksmuseumLegacy(
            .generated(count: 10), configuration: MockConfiguration(requiredKey: "right"))
        defer { Task { await museum.stop() } }
        let output = try TemporaryFolder()
        let result = try await run(
            ["export", "--source", "rijksmuseum-legacy", "--base-url", museum.legacyBaseURL, "--output", output.path],
            environment: ["RIJKSMUSEUM_API_KEY": "s3cret"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(
            lines.first
                == "vitrine: error: rijksmuseum-legacy: page 0 (\(museum.legacyBaseURL)/en/collection?key=***&format=json&p=0&ps=100&s=artist): the Rijksmuseum API refused the key (HTTP 401): check --key or RIJKSMUSEUM_API_KEY"
        )
        #expect(!result.stderr.contains("s3cret"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    /// Issue 37, item 6: a refused connection took two minutes (five retries) and ended in a garbled line that
    /// advised a lower rate. Now one short retry, counted in the line, and advice that fits.
    @Test func `a refused connection fails after one short retry, saying what to check`() async throws {
        // A port that was free a moment ago, and that nothing listens on.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        close(socket)
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let output = try TemporaryFolder()
        let report = output.url.appendingPathComponent("report.json")
        let result = try await run([
            "export", "--source", "oai", "--base-url", "http://127.0.0.1:\(port)/oai", "--retries", "5", "--no-cache",
            "--output", output.url.appendingPathComponent("site").path, "--summary-json", report.path,
        ])
        // A server that is down is worth trying again later: a scheduler can tell that from the status.
        #expect(result.status == 75)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        #expect(json?["status"] as? String == "failed")
        #expect(json?["exitStatus"] as? Int == 75)
        let error = json?["error"] as? String
        #expect(error.map { "vitrine: error: \($0)\n" } == result.stderr, "\(String(describing: json))")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        // The repository's name is its first request.
        #expect(
            lines.first?.hasPrefix("vitrine: error: oai: page Identify (http://127.0.0.1:\(port)/oai?verb=Identify)")
                == true)
        #expect(lines.first?.contains("the connection was refused; check --base-url") == true)
        #expect(lines.first?.hasSuffix("(still failing after 1 retry)") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("--rate") && !result.stderr.contains("errno"))
    }

    /// Issue 37, item 7: a scheduler's log or monitoring reads the run's figures from a file, not the summary line.
    @Test func `--summary-json holds the figures of the summary line`() async throws {
        let output = try TemporaryFolder()
        let report = output.url.appendingPathComponent("report.json")
        let result = try await run([
            "export", "--output", output.url.appendingPathComponent("site").path, "--summary-json", report.path,
            "--site-title", "Het Huis", "--site-url", "https://huis.example/collectie",
        ])
        #expect(result.status == 0)
        #expect(try output.read("site/index.html").contains("<title>Het Huis</title>"))
        #expect(try output.read("site/sitemap.xml").contains("<loc>https://huis.example/collectie/</loc>"))
        let pages = try TemporaryFolder.files(in: output.url.appendingPathComponent("site")).keys.filter {
            $0.hasSuffix(".html")
        }
        #expect(pages.count > 320 + 33 + 2)
        #expect(try output.read("site/sitemap.xml").components(separatedBy: "<url>").count == 1 + pages.count)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let summary = try #require(result.stderr.split(separator: "\n").last.map(String.init))
        #expect(json["summary"] as? String == summary)
        #expect(json["status"] as? String == "done" && json["exitStatus"] as? Int == 0)
        #expect(json["source"] as? String == "demo" && json["run"] as? String == "full")
        for (key, value, words) in [
            ("pages", 14, "14 pages"), ("objects", 320, "320 objects"), ("sections", 33, "33 sections"),
            ("duplicates", 1, "1 duplicate,"), ("skipped", 0, "0 skipped"),
        ] {
            #expect(json[key] as? Int == value, "\(key)")
            #expect(summary.contains(words), "\(key)")
        }
        #expect((json["filesRendered"] as? Int ?? 0) > 320)
    }

    /// Found by a hostile check: a refused command line or file left last night's report in place.
    @Test func `an export refused before it starts still writes its report, from the flags or the file`()
        async throws
    {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("report.json")
        let refused = try await run(
            ["export", "--no-cache", "--summary-json", report.path, "--thumbnail-width", "5"], in: folder.url)
        #expect(refused.status == 64)
        let written = try JSONDecoder().decode(RunReport.self, from: Data(contentsOf: report))
        #expect(written.status == "failed" && written.exitStatus == 64)
        #expect(written.error == "--thumbnail-width must be 16…4000.")
        try Data("summary-json: from-file.json\nfull: maybe\n".utf8)
            .write(to: folder.url.appendingPathComponent("vitrine.yaml"))
        #expect(try await run(["export"], in: folder.url).status == 64)
        let fromFile = try JSONDecoder().decode(
            RunReport.self, from: Data(contentsOf: folder.url.appendingPathComponent("from-file.json")))
        #expect(fromFile.status == "failed" && fromFile.error?.contains("full is a switch") == true)
    }

    /// Found by a hostile check: a run that failed part way reported `"retries": 0` and `"pages": 0`, figures it
    /// never counted. Before its summary a report holds how the run ended and no figures.
    @Test func `a run that fails part way reports how it ended and no figures`() async throws {
        let museum = try await MockMuseum.oaiPMH(OAICollection(count: 500, pageSize: 50))
        defer { Task { await museum.stop() } }
        await museum.setFaults(MockFaults(outageAfter: 3, outageStatus: 404))
        let work = try TemporaryFolder()
        let report = work.url.appendingPathComponent("report.json")
        let result = try await run([
            "export", "--source", "rijksmuseum", "--base-url", museum.oaiBaseURL, "--no-cache", "--output",
            work.url.appendingPathComponent("site").path, "--summary-json", report.path,
        ])
        #expect(result.status != 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(json["status"] as? String == "failed" && json["exitStatus"] as? Int == Int(result.status))
        #expect((json["error"] as? String)?.contains("404") == true, "\(json)")
        for key in ["pages", "objects", "retries", "requests", "filesRendered", "seconds"] {
            #expect(json[key] == nil, "\(key)")
        }
    }

    /// Issue 37, item 7: Ctrl-C says that the same command resumes, and it does.
    @Test func `Ctrl-C says how to resume, and the same command resumes`() async throws {
        let museum = try await MockMuseum.oaiPMH(OAICollection(count: 3_000, pageSize: 50))
        defer { Task { await museum.stop() } }
        await museum.setFaults(MockFaults(latency: .milliseconds(300)))
        let work = try TemporaryFolder()
        let report = work.url.appendingPathComponent("report.json")
        let arguments = [
            "export", "--source", "rijksmuseum", "--base-url", museum.oaiBaseURL, "--cache",
            work.url.appendingPathComponent("cache").path, "--output", work.url.appendingPathComponent("site").path,
            "--summary-json", report.path,
        ]
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Interrupted once a dozen pages were asked for: the pages read by then are stored, more than the last of
        // each chain that a resume asks for again (after 4, on a loaded machine, the cache sometimes held none).
        await museum.waitForRequests(12)
        process.interrupt()
        // Read and waited for on a thread of its own, like `run`: not on a thread of the pool the mock needs.
        let stderr = await withCheckedContinuation { continuation in
            Thread.detachNewThread { [process] in
                let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                continuation.resume(returning: text)
            }
        }
        #expect(process.terminationStatus == 130)
        #expect(stderr.hasSuffix("vitrine: interrupted; run the same command again to resume\n"), "\(stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        #expect(json?["status"] as? String == "interrupted" && json?["exitStatus"] as? Int == 130)
        // The stderr line, as for a run that failed (found by a hostile check: it was missing).
        #expect(json?["error"] as? String == "vitrine: interrupted; run the same command again to resume")
        #expect(!FileManager.default.fileExists(atPath: work.url.appendingPathComponent("site").path))

        await museum.setFaults(MockFaults())
        let resumed = try await run(arguments)
        #expect(resumed.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect((2_727...2_728).contains(summary["objects"] as? Int ?? 0), "\(resumed.stderr)")
        #expect((summary["cacheHits"] as? Int ?? 0) > 0, "\(resumed.stderr)")
    }

    /// Issue 37, item 9: what a template folder gets wrong is a plain warning line, not a log line.
    @Test func `a misnamed template is a plain warning line saying what was meant`() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("templates/html"), withIntermediateDirectories: true)
        try "<h1>{{title}}</h1>".write(
            to: folder.url.appendingPathComponent("templates/html/index.mustache"), atomically: true, encoding: .utf8)
        let templates = folder.url.appendingPathComponent("templates").path
        let result = try await run([
            "export", "--output", folder.url.appendingPathComponent("site").path, "--templates", templates,
        ])
        #expect(result.status == 0)
        #expect(
            result.stderr.hasPrefix(
                "warning: --templates \(templates): html/index.mustache replaces no template and no template "
                    + "includes it; did you mean html/index.html.mustache?\n"), "\(result.stderr)")
    }

    /// Found by a hostile check of publishing: each mistake is refused before anything is harvested or written,
    /// first thing, naming it.
    @Test func `mistakes in publishing settings are refused before the export starts`() async throws {
        let folder = try TemporaryFolder()
        let site = folder.url.appendingPathComponent("site").path
        let refusals: [(arguments: [String], status: Int32, words: String)] = [
            (["--summary-json", folder.path + "/missing/report.json"], 64, "there is no folder"),
            (["--source", "unsplash", "--no-cache"], 64, "Unsplash needs an access key"),
            (["--templates", folder.path + "/missing"], 64, "is not a folder"),
            (["--summary-json", site + "/index.html"], 64, "inside the output folder"),
            (["--language", "../x"], 64, "--language must be a language code"),
            (
                [
                    "--source", "oai", "--base-url", "http://127.0.0.1:9/oai", "--from", "2021-01-01", "--until",
                    "2020-12-31T10:00:00Z",
                ], 64, "--from 2021-01-01 is after --until"
            ),
            (["--site-url", "https://museum.example/collection/index.html"], 64, "names a file (index.html)"),
            (["--site-url", "https://museum.example:99999/"], 64, "port"),
            (
                ["--source", "oai", "--base-url", "http://127.0.0.1:9/oai", "--cache", site + "/cache"], 64,
                "inside the output folder"
            ),
        ]
        for refusal in refusals {
            let result = try await run(["export", "--output", site] + refusal.arguments, in: folder.url)
            #expect(result.status == refusal.status, "\(refusal.arguments): \(result.stderr)")
            #expect(result.stderr.contains(refusal.words), "\(refusal.arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").first?.contains(refusal.words) == true, "the first line")
            #expect(!FileManager.default.fileExists(atPath: site), "\(refusal.arguments): nothing written")
        }
        // A cache not made yet, through a link into the output folder.
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: site)
        let linked = try await run(
            [
                "export", "--output", site, "--source", "oai", "--base-url", "http://127.0.0.1:9/oai", "--cache",
                folder.path + "/link/cache",
            ], in: folder.url)
        #expect(linked.status == 64 && linked.stderr.contains("inside the output folder"), "\(linked.stderr)")
        // Found by a review: a refused command line still wrote its report, into the output folder too.
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        try Data("<html>".utf8).write(to: URL(fileURLWithPath: site + "/index.html"))
        let refused = try await run(
            ["export", "--output", site, "--summary-json", site + "/index.html", "--bogus"], in: folder.url)
        #expect(refused.status == 64)
        #expect(try folder.read("site/index.html") == "<html>")
        // A home named by $HOME alone (a service's environment) is a home too.
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: home.appendingPathComponent(".profile"))
        let intoHome = try await run(
            ["export", "--output", home.path], environment: ["HOME": home.path], in: folder.url)
        #expect(intoHome.status == 64 && intoHome.stderr.contains("your home folder"), "\(intoHome.stderr)")
        // Found by a hostile check: such an --output was refused only after the whole harvest (exit 75 with the
        // server down), and a link reached through `..` was written through. Told before any request now.
        try FileManager.default.createDirectory(atPath: folder.path + "/wd", withIntermediateDirectories: true)
        for output in ["link", "wd/../link", folder.path + "/link/x/.."] {
            let throughLink = try await run(
                [
                    "export", "--source", "oai", "--base-url", "http://127.0.0.1:9/oai", "--no-cache", "--output",
                    output,
                ],
                in: folder.url)
            #expect(
                throughLink.status == 64 && throughLink.stderr.contains("is a symbolic link"),
                "\(output): \(throughLink.stderr)")
        }
        // Found by a hostile check: a file on the way was "the system gave no reason (code 512)".
        try Data().write(to: folder.url.appendingPathComponent("afile"))
        let throughFile = try await run(["export", "--output", folder.path + "/afile/a/site"], in: folder.url)
        #expect(throughFile.status == 1)
        #expect(throughFile.stderr.contains("\(folder.path)/afile is a file, not a folder"), "\(throughFile.stderr)")
        // `--quiet` (a nightly job's file) silences the retired --ttl's note; `--verbose` wins over it.
        let quiet = try await run(["export", "--output", "quiet", "--quiet", "--ttl", "1d"], in: folder.url)
        let verbose = try await run(
            ["export", "--output", "verbose", "--quiet", "--verbose", "--ttl", "1d"], in: folder.url)
        #expect(quiet.status == 0 && !quiet.stderr.contains("--ttl"), "\(quiet.stderr)")
        #expect(verbose.status == 0 && verbose.stderr.contains("--ttl no longer does anything"), "\(verbose.stderr)")
        let json = try await run(["init", "--output", "vitrine.json"], in: folder.url)
        #expect(json.status == 64 && json.stderr.contains("writes YAML"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/vitrine.json"))
    }

    /// Issue 37, item 2: a nightly job's settings in `vitrine.yaml`; flags win; keys only from the environment.
    @Test func `vitrine init writes settings that export reads, and flags win over them`() async throws {
        let folder = try TemporaryFolder()
        let written = try await run(["init"], in: folder.url)
        #expect(written.status == 0 && written.stdout.contains("wrote vitrine.yaml"))
        #expect(try await run(["init"], in: folder.url).status == 64, "an existing file is kept")
        // Found by a hostile check: a link, even to nothing, was written through.
        let linked = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: linked.path + "/vitrine.yaml", withDestinationPath: folder.path + "/elsewhere.yaml")
        #expect(try await run(["init"], in: linked.url).status == 64, "a dangling link is something there")
        #expect(try await run(["init", "--force"], in: linked.url).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/elsewhere.yaml"), "the link is replaced")
        #expect(
            try linked.read("vitrine.yaml").hasPrefix("# vitrine.yaml") && linked.read("vitrine.yaml").hasSuffix("\n"))
        // The example harvests the Rijksmuseum: here the demo, by flags, which win over the file.
        let result = try await run(["export", "--source", "demo", "--no-cache"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try folder.read("site/index.html").contains("<title>My Museum collection</title>"), "from the file")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/site/collection.jsonl"), "format from the file")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/vitrine-last-run.json"))
        #expect(result.stderr.split(separator: "\n").count == 1, "quiet from the file: the summary alone")
        let titled = try await run(
            ["export", "--source", "demo", "--no-cache", "--site-title", "Het Huis"], in: folder.url)
        #expect(titled.status == 0)
        #expect(try folder.read("site/index.html").contains("<title>Het Huis</title>"), "the flag wins")
    }

    @Test func `a configuration file by --config, in JSON, and its mistakes named`() async throws {
        let folder = try TemporaryFolder()
        let json = folder.url.appendingPathComponent("nightly.json")
        try Data(
            #"{"site-title": "Het Huis", "no-cache": true, "format": ["html", "csv"], "output": "out", "cards-per-page": 50}"#
                .utf8
        ).write(to: json)
        let result = try await run(["export", "--config", json.path], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try folder.read("out/index.html").contains("<title>Het Huis</title>"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/catalog.md"))
        // A date stays the text it is written as (`from: 2026-01-01` is what --from takes), not a timestamp.
        try Data("site-title: 2026-01-01\noutput: dated\n".utf8)
            .write(to: folder.url.appendingPathComponent("vitrine.yaml"))
        #expect(try await run(["export", "--no-cache"], in: folder.url).status == 0)
        #expect(try folder.read("dated/index.html").contains("<title>2026-01-01</title>"))
        // Every value is the text as written: YAML's `No`, `0123` and `1.10` are not false, 83 and 1.1, and a value
        // that starts with `-` is not a flag (found by a hostile check).
        try Data("site-title: No\nsite-description: 0123 1.10\noutput: \"-dashed\"\nthumbnail-width: 0400\n".utf8)
            .write(to: folder.url.appendingPathComponent("vitrine.yaml"))
        let literal = try await run(["export", "--no-cache"], in: folder.url)
        #expect(literal.status == 0, "\(literal.stderr)")
        let page = try folder.read("-dashed/index.html")
        #expect(page.contains("<title>No</title>") && page.contains(#"content="0123 1.10""#))
        for (text, message) in [
            ("key: abc123\n", "vitrine.yaml: an API key does not belong in a file that is shared and backed up; "),
            ("key: abc123\n", "in the environment instead, as RIJKSMUSEUM_API_KEY or UNSPLASH_ACCESS_KEY"),
            (
                "sit-title: Het Huis\n",
                "vitrine.yaml: no export setting is called 'sit-title'; did you mean site-title?"
            ),
            ("- a list\n", "vitrine.yaml must hold settings by name"),
            ("site-title: [unclosed\n", "vitrine.yaml is not valid YAML or JSON"),
            ("thumbnail-width: 5\n", "--thumbnail-width must be 16…4000."),
            ("full: maybe\n", "vitrine.yaml: full is a switch: true or false, not 'maybe'."),
            ("quiet: yes\n", "vitrine.yaml: quiet is a switch: true or false, not 'yes'."),
            ("quiet: \"false\"\n", "vitrine.yaml: quiet is a switch: true or false, without quotes."),
            ("format: [[html]]\n", "vitrine.yaml: format must be a list of values, not of groups."),
        ] {
            try Data(text.utf8).write(to: folder.url.appendingPathComponent("vitrine.yaml"))
            let refused = try await run(["export", "--no-cache"], in: folder.url)
            #expect(refused.status == 64, "\(text)")
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
            // One line, as every error is: no usage lines after it.
            #expect(refused.stderr.hasPrefix("vitrine: error: ") && refused.stderr.split(separator: "\n").count == 1)
        }
    }

    /// Issue 37, item 8: `--version` tells the version the changelog's newest release names (changes not yet
    /// released come above it, under `## Unreleased`).
    @Test func `--version is the changelog's newest release`() async throws {
        let result = try await run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == VitrineVersion.current + "\n")
        let changelog = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0 != "## Unreleased" }
        #expect(newest?.hasPrefix("## \(VitrineVersion.current) ") == true, "\(newest ?? "no release")")
    }

    @Test func `bad flags are refused with usage`() async throws {
        #expect(try await run(["export", "--format", "pdf"]).status == 64)
        #expect(try await run(["export", "--concurrency", "0"]).stderr.contains("--concurrency must be 1…64."))
        let refused = try await run(["export", "--source", "met", "--set", "260214"])
        #expect(refused.status == 64)
        #expect(
            refused.stderr
                == "vitrine: error: met: the met source cannot honour --set; it can filter by --query, --artist, --department\n"
        )
    }

    @Test(arguments: [
        (["--page-size", "-1"], "--page-size must be at least 1."),
        (["--rate", "0.000001"], "--rate must be 0 (no ceiling) or 0.01…1000000 requests a second"),
        (["--rate", "nan"], "--rate must be 0 (no ceiling) or 0.01…1000000 requests a second"),
        (["--start-page", "9223372036854775807"], "--start-page must be 0…100000000."),
        (["--max-pages", "-5"], "--max-pages must be at least 1."),
        (["--source", "nope"], "No source is called 'nope'; choose demo, rijksmuseum,"),
        (
            ["--site-url", "museum.example/collection"],
            "--site-url museum.example/collection: it must start with https://"
        ),
        (["--site-logo", "/nonexistent/logo.png"], "--site-logo: cannot read the file /nonexistent/logo.png."),
        (["--site-logo", "/etc/hostname"], "--site-logo must be a picture: .avif, .gif, .jpeg, .jpg, .png"),
    ])
    func `numbers out of range are refused with usage, not taken for flags or left to overflow`(
        flags: [String], message: String
    ) async throws {
        let result = try await run(["export"] + flags)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func `vitrine cache tells where the cache is and what it holds, and clears it`() async throws {
        let folder = try TemporaryFolder()
        let shown = try await run(["cache", "--cache", folder.path])
        #expect(shown.status == 0)
        #expect(shown.stdout.hasPrefix("page cache: \(folder.path)\n  0 harvests under way, 0 pages, 0.0 MB"))
        let cleared = try await run(["cache", "--cache", folder.path, "--clear"])
        #expect(
            cleared.stdout.hasPrefix(
                "removed 0 harvests under way (0 pages) and 0 collection stores from \(folder.path)"))
        let file = folder.url.appendingPathComponent("file")
        try Data().write(to: file)
        let refused = try await run(["export", "--source", "rijksmuseum", "--cache", file.path, "--quiet"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("the page cache at \(file.path) cannot be written"))
    }

    @Test func `a second vitrine export of the same collection asks only for its changes`() async throws {
        var collection = OAICollection(count: 60)
        collection.generations = [ChangeGeneration(revised: [1], added: 1)]
        let museum = try await MockMuseum.oaiPMH(collection)
        defer { Task { await museum.stop() } }
        let cache = try TemporaryFolder()
        let output = try TemporaryFolder()
        let export = [
            "export", "--source", "rijksmuseum", "--base-url", museum.oaiBaseURL, "--cache", cache.path, "--output",
            output.path, "--quiet",
        ]
        // A language code in capitals is the same language, with the same store.
        let first = try await run(export + ["--language", "EN"])
        #expect(first.stderr.contains("vitrine: rijksmuseum: full run (0 changed, 0 deleted, 55 new)"))
        var faults = MockFaults()
        faults.museumGeneration = 1
        await museum.setFaults(faults)
        let again = try await run(export)
        #expect(again.status == 0)
        #expect(
            again.stderr.contains(
                "vitrine: rijksmuseum: incremental run, changes since 2026-11-22T09:55:00Z "
                    + "(1 changed, 0 deleted, 1 new)"))
        let shown = try await run(["cache", "--cache", cache.path])
        #expect(shown.stdout.contains("collection stores: \(cache.path)/stores\n  1 store, "))
        let offline = try await run(export + ["--offline"])
        #expect(offline.stderr.contains("vitrine: rijksmuseum: from the collection store, no request"))
        let conflicting = try await run(export + ["--offline", "--full"])
        #expect(conflicting.status == 64)
    }

    @Test func `vitrine sources tells each source's base URL, paging, key and filters`() async throws {
        let sources = try await run(["sources"])
        #expect(sources.status == 0)
        let names = sources.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(names == ["demo", "rijksmuseum", "rijksmuseum-legacy", "aic", "met", "unsplash", "oai"])
        for expected in [
            "base URL: https://data.rijksmuseum.nl/oai", "base URL: https://api.artic.edu/api/v1",
            "key:      --key or UNSPLASH_ACCESS_KEY", "filters:  --set, --from, --until, --metadata-prefix",
            "rate:     at most 4 requests a second (--rate overrides)",
        ] {
            #expect(sources.stdout.contains(expected), "\(expected)")
        }
    }

    @Test func `vitrine export harvests an OAI-PMH repository end to end`() async throws {
        let museum = try await MockMuseum.oaiPMH(OAICollection(count: 60))
        defer { Task { await museum.stop() } }
        let output = try TemporaryFolder()
        let result = try await run([
            "export", "--source", "rijksmuseum", "--base-url", museum.oaiBaseURL, "--output", output.path, "--quiet",
        ])
        #expect(result.status == 0)
        #expect(
            result.stderr.hasPrefix(
                "vitrine: rijksmuseum: full run (0 changed, 0 deleted, 55 new), 2 pages, 55 objects, 12 sections, "
                    + "0 duplicates, 0 skipped, 5 deleted at the source"))
    }
}

/// Bytes handed from one thread to another.
private final class LockedData: Sendable {
    private let data = Locked(Data())

    func set(_ value: Data) { data.withLock { $0 = value } }
    func get() -> Data { data.current }
}
