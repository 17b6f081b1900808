import Foundation
import Testing
import VitrineFiles
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineOutput

/// The manifests a re-run holds by path hash, and the manifest written from what was staged (issue 13, item 5).
@Suite struct ManifestTableTests {
    /// The records folder of the catalog at `output`, made empty: where its manifest is written.
    private func records(of output: TemporaryFolder) throws -> URL {
        let records = try #require(CatalogRecords(of: output.path, output: output.url))
        try records.makeEmpty()
        return records.folder
    }

    private func made(_ number: Int) -> OutputManifest.Made {
        var fingerprint = Fingerprint()
        fingerprint.combine(number)
        return OutputManifest.Made(fingerprint: fingerprint, size: number, modified: Int64(number) * 1_000_000_007 + 1)
    }

    @Test func `a manifest read by path hash answers as the one held by path strings`() throws {
        let output = try TemporaryFolder()
        var written = ListedManifest()
        for number in 0..<5_000 { written.made["objects/sk-a-\(number).html"] = made(number) }
        written.made["index.html"] = made(12_345)
        written.unfingerprinted = ["assets/old.css"]
        try written.write(in: records(of: output))

        let table = ManifestTable(ofCatalog: output.path, output: output.url)
        #expect(table.count == 5_001)
        for number in 0..<5_000 { #expect(table["objects/sk-a-\(number).html"] == made(number)) }
        #expect(table["index.html"] == made(12_345))
        // Listed without a fingerprint: listed, but nothing to keep it by.
        #expect(table["assets/old.css"] == nil && table.contains("assets/old.css"))
        for absent in ["objects/sk-a-5000.html", "objects", "index.htm", "", "objects/sk-a-1.html/"] {
            #expect(table[absent] == nil && !table.contains(absent))
        }
        #expect(table.topLevelEntries == ["objects", "index.html", "assets"])
    }

    /// A spare's table that shares the live table's entries answers every path as it did on its own, over seeded
    /// random pairs of catalogs: files in both alike, changed, only in one, and listed without a fingerprint.
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func `a spare's table sharing the live one's entries answers as it did alone`(seed: UInt64) throws {
        var random = SplitMix(seed)
        var live = ListedManifest()
        var spare = ListedManifest()
        var paths: [String] = []
        for number in 0..<Int(random.next() % 3_000) {
            let path = "objects/sk-a-\(number).html"
            paths.append(path)
            let value = made(Int(random.next() % 50_000))
            switch random.next() % 8 {
            case 0: live.made[path] = value
            case 1: spare.made[path] = value
            case 2: (live.made[path], spare.made[path]) = (value, made(Int(random.next() % 50_000) + 50_000))
            case 3: (live.made[path], spare.unfingerprinted) = (value, spare.unfingerprinted.union([path]))
            default: (live.made[path], spare.made[path]) = (value, value)
            }
        }
        let liveFolder = try TemporaryFolder()
        let spareFolder = try TemporaryFolder()
        try live.write(in: records(of: liveFolder))
        try spare.write(in: records(of: spareFolder))
        let liveTable = ManifestTable(ofCatalog: liveFolder.path, output: liveFolder.url)
        let alone = ManifestTable(ofCatalog: spareFolder.path, output: spareFolder.url)
        let shared = alone.sharing(with: liveTable)
        #expect(shared.count == alone.count && shared.isEmpty == alone.isEmpty)
        #expect(shared.topLevelEntries == alone.topLevelEntries)
        for path in paths + ["objects/sk-a-999999.html", "index.html", ""] {
            #expect(shared[path] == alone[path], "\(path)")
            #expect(shared.contains(path) == alone.contains(path), "\(path)")
            #expect(liveTable[path] == live.made[path])
        }
    }

    /// A spare manifest that lists one path twice (hand-edited, or two paths sharing a hash) is answered as it was
    /// alone, whichever of the two entries the live table lists alike.
    @Test(arguments: [true, false])
    func `a path the spare lists twice is answered as alone`(firstMatchesLive: Bool) throws {
        let liveFolder = try TemporaryFolder()
        let spareFolder = try TemporaryFolder()
        var live = ListedManifest()
        live.made["objects/a.html"] = made(1)
        live.made["objects/b.html"] = made(2)
        try live.write(in: records(of: liveFolder))
        let twice = firstMatchesLive ? [made(1), made(7)] : [made(7), made(1)]
        try OutputManifest.write(in: records(of: spareFolder)) { line in
            for value in twice { Array("objects/a.html".utf8).withUnsafeBufferPointer { line($0, value) } }
            Array("objects/b.html".utf8).withUnsafeBufferPointer { line($0, made(2)) }
        }
        let liveTable = ManifestTable(ofCatalog: liveFolder.path, output: liveFolder.url)
        let alone = ManifestTable(ofCatalog: spareFolder.path, output: spareFolder.url)
        let shared = alone.sharing(with: liveTable)
        #expect(alone["objects/a.html"] != nil)
        #expect(shared["objects/a.html"] == alone["objects/a.html"])
        #expect(shared["objects/b.html"] == made(2) && shared.count == alone.count)
    }

    /// SplitMix64: the same seed gives the same catalogs.
    private struct SplitMix {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    @Test func `an empty or missing manifest holds nothing`() throws {
        let output = try TemporaryFolder()
        for table in [ManifestTable(), ManifestTable(ofCatalog: output.path, output: output.url)] {
            #expect(table.isEmpty && table["index.html"] == nil && !table.contains("index.html"))
            #expect(table.topLevelEntries.isEmpty)
        }
    }

    @Test func `the staged files' manifest is sorted by path, and of a path staged twice the later wins`() throws {
        let output = try TemporaryFolder()
        var staged = StagedManifest()
        for path in ["objects/b.html", "index.html", "objects/a.html", "objects/a.htm", "collection.csv"] {
            staged.append(path, made(path.count))
        }
        staged.append("index.html", made(99))
        try staged.write(in: records(of: output))
        let read = try #require(ListedManifest.read(ofCatalog: output.url))
        #expect(read.made == staged.table())
        #expect(read.made["index.html"] == made(99))
        let paths = try String(
            contentsOfFile: #require(OutputManifest.path(ofCatalog: output.path, output: output.url)), encoding: .utf8
        )
        .split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[0] }
        #expect(paths == ["collection.csv", "index.html", "objects/a.htm", "objects/a.html", "objects/b.html"])
        #expect(PathHashTable<Void>(staged: staged).contains("objects/a.htm"))
        #expect(!PathHashTable<Void>(staged: staged).contains("objects/c.html"))
    }

    @Test func `long paths that share their first bytes are sorted by all of them, past the buffer's megabyte`()
        throws
    {
        let output = try TemporaryFolder()
        var staged = StagedManifest()
        // 30,000 paths (2 MB of lines) whose first 24 bytes or more are alike, staged out of order; every
        // hundredth staged again later with another size. And paths around the 24th byte: shorter, equal, longer.
        let numbers = (0..<30_000).map { ($0 * 7_919) % 30_000 }
        var expected: [String: Int] = [:]
        for number in numbers {
            let path = "objects/a-very-long-common-prefix-\(number).html"
            staged.append(path, made(number))
            expected[path] = number
        }
        for number in stride(from: 0, to: 30_000, by: 100) {
            let path = "objects/a-very-long-common-prefix-\(number).html"
            staged.append(path, made(number + 1))
            expected[path] = number + 1
        }
        for path in ["objects/abcdefghijklmnop", "objects/abcdefghijklmno", "objects/abcdefghijklmnopq", "objects"] {
            staged.append(path, made(path.count))
            expected[path] = path.count
        }
        try staged.write(in: records(of: output))
        let lines = try String(
            contentsOfFile: #require(OutputManifest.path(ofCatalog: output.path, output: output.url)), encoding: .utf8
        )
        .split(separator: "\n").dropFirst()
        let paths = lines.map { String($0.split(separator: "\t")[0]) }
        #expect(paths == expected.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        let read = try #require(ListedManifest.read(ofCatalog: output.url))
        #expect(read.made == expected.mapValues { made($0) })
    }

    @Test func `sizes and fingerprints are written as a string would write them, and read back`() throws {
        for size in [0, 7, 10, 99, 1_000, 123_456_789, Int.max, -1, Int.min] {
            var bytes: [UInt8] = []
            bytes.append(contentsOf: String(size).utf8)
            #expect(String(decoding: bytes, as: UTF8.self) == String(size))
        }
        var fingerprint = Fingerprint()
        fingerprint.combine("objects/SK-A-2.html")
        var hex = [UInt8](repeating: 0, count: 32)
        hex.withUnsafeMutableBufferPointer { buffer in
            if let address = buffer.baseAddress { fingerprint.writeHex(to: address) }
        }
        #expect(String(decoding: hex, as: UTF8.self) == fingerprint.description)
        let output = try TemporaryFolder()
        var staged = StagedManifest()
        staged.append("objects/big.html", OutputManifest.Made(fingerprint: fingerprint, size: Int(Int32.max) + 1))
        try staged.write(in: records(of: output))
        #expect(ListedManifest.read(ofCatalog: output.url)?.made["objects/big.html"]?.size == Int(Int32.max) + 1)
        #expect(ListedManifest.read(ofCatalog: output.url)?.made["objects/big.html"]?.fingerprint == fingerprint)
    }

    /// Manifest 2 gave no modification time: its files are listed, but none is taken for the file written.
    @Test func `a line without a modification time describes no file, and a line with one describes only it`()
        throws
    {
        let output = try TemporaryFolder()
        let records = try records(of: output)
        let fingerprint = String(repeating: "ab", count: 16)
        let lines = [
            "# vitrine manifest 2", "index.html\t\(fingerprint)\t5", "a.html\t\(fingerprint)\t5\t",
            "b.html\t\(fingerprint)\t5\tx", "c.html\t\(fingerprint)\t5\t1\t2",
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(
            to: records.appendingPathComponent(OutputManifest.fileName))
        let read = try #require(ListedManifest.read(ofCatalog: output.url))
        let index = try #require(read.made["index.html"])
        #expect(index.size == 5 && index.modified == 0)
        #expect(read.made["a.html"] == nil && read.made["b.html"] == nil && read.made["c.html"] == nil)
        #expect(read.unfingerprinted == ["a.html", "b.html", "c.html"])

        let page = output.url.appendingPathComponent("index.html")
        try Data("index".utf8).write(to: page)
        var status = stat()
        #expect(lstat(page.path, &status) == 0)
        #expect(!index.describes(status))
        var written = index
        written.modified = modificationTime(status)
        #expect(written.describes(status))
        written.size = 4
        #expect(!written.describes(status))
    }
}
