import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays

/// Issue 34, items 6 and 15: after an upgrade, a re-run kept every unchanged page as the old build wrote it, since the
/// fingerprints' seed held a version string that never changed. Every kept page's fingerprint now starts from the
/// build that renders it.
@Suite struct BuildIdentityTests {
    private static func model() async throws -> CatalogViewModel {
        let spy = CatalogDisplayLogicSpy()
        return try await ExportPresenter(thumbnailWidth: 400, catalogDisplay: spy, progressDisplay: spy).makeViewModel(
            response: Seeds.catalogResponse)
    }

    private static func export(to path: String, build: String) async throws -> WrittenCatalog {
        var identity = Fingerprint()
        identity.combine(build)
        let writer = CatalogWriter(
            outputDirectory: path, formats: CatalogFormat.allCases, templates: try TemplateLibrary(build: identity))
        return try await writer.displayCatalog(viewModel: model())
    }

    @Test func `this executable has a build id, and it seeds the library's fingerprint`() throws {
        #if os(Linux) || os(macOS)
            let linked = try #require(BuildIdentity.linked)
            #expect(linked.count >= 16)
        #endif
        var other = Fingerprint()
        other.combine("another build")
        #expect(try TemplateLibrary().fingerprint != TemplateLibrary(build: other).fingerprint)
    }

    @Test func `a re-run by another build renders every page again, as a fresh export would`() async throws {
        let parent = try TemporaryFolder()
        let path = parent.url.appendingPathComponent("site").path
        _ = try await Self.export(to: path, build: "0.1.0")
        let fresh = try TemporaryFolder.files(in: URL(fileURLWithPath: path))
        // What the old build wrote differs from what this one writes, byte for byte but not in size: an escape
        // spelt another way (`&#39;` against `&#x27;`). Its modification time is the one written.
        let page = URL(fileURLWithPath: path).appendingPathComponent("objects/sk-c-5.html")
        var written = stat()
        #expect(lstat(page.path, &written) == 0)
        var old = try Data(contentsOf: page)
        old[old.count / 2] = old[old.count / 2] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        try old.write(to: page)
        let times = [written.st_atim, written.st_mtim]
        #expect(utimensat(AT_FDCWD, page.path, times, 0) == 0)

        // The same build keeps it: nothing it renders changed (so the page as it lies is trusted).
        let same = try await Self.export(to: path, build: "0.1.0")
        #expect(same.kept > 0)
        #expect(try Data(contentsOf: page) == old)
        // Another build renders it again.
        let upgraded = try await Self.export(to: path, build: "0.2.0")
        #expect(upgraded.kept == 0 || upgraded.kept < same.kept)
        #expect(try Data(contentsOf: page) == fresh["/objects/sk-c-5.html"])
    }
}
