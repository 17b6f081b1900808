import Foundation
import Testing
import VitrineMockMuseum

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

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }

    @Test func `vitrine export writes the demo catalogs and ends with the summary line`() throws {
        let output = try TemporaryFolder()
        let result = try run(["export", "--output", output.path])
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
        let result = try run(
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

    @Test func `bad flags are refused with usage`() throws {
        #expect(try run(["export", "--format", "pdf"]).status == 64)
        #expect(try run(["export", "--concurrency", "0"]).stderr.contains("--concurrency must be 1…64."))
        let sources = try run(["sources"])
        #expect(
            sources.status == 0 && sources.stdout.contains("rijksmuseum-legacy")
                && sources.stdout.contains("RIJKSMUSEUM_API_KEY"))
    }
}
