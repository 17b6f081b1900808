import Testing

@testable import VitrineDisplays
@testable import VitrineOutput

/// A manifest's paths are checked byte by byte before an export trusts them: only paths that stay inside the
/// output folder are listed.
@Suite struct ManifestPathTests {
    @Test(arguments: [
        "index.html", "objects/sk-a-1.html", "catalog/j--2.md", "...", "a/.../b", ".hidden", "a/..b", "葛飾/北斎.html",
    ])
    func `a path inside the folder is safe`(path: String) {
        #expect(OutputManifest.isSafe(path))
    }

    @Test(arguments: [
        "", "/etc/hosts", "../x", "a/../b", "a/./b", ".", "..", "a/..", "a//b", "a/", "a\tb", "a\0b",
    ])
    func `a path that leaves the folder, or is no path, is not`(path: String) {
        #expect(!OutputManifest.isSafe(path))
    }
}
