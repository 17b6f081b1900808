import Foundation
import VitrineCore
import VitrineFiles

/// The page cache on disk: a folder per harvest under way, `{cache}/harvests/{harvest id}/`, holding one file per
/// response, named by a hash of its key, under a two-character fan-out folder (a Met harvest stores half a million
/// objects). Beside it, `{cache}/stores/` holds the collection stores; nothing else under `--cache` is Vitrine's.
///
/// A file holds one JSON line (the key, status, headers and the body's length) and then the body. Files are written to a temporary
/// name and renamed, so a run killed at any moment leaves whole entries or none. The key never holds a secret:
/// keys in query strings are redacted first, and keys sent in headers (Unsplash) are not part of it. The key inside
/// the file is compared on read, so a hash collision is a miss, not a wrong page.
package struct FilePageCache: PageCache {
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/vitrine`, else `~/.cache/vitrine` (`~/Library/Caches/Vitrine` on macOS).
    package static func defaultDirectory(environment: [String: String]) -> URL {
        #if os(macOS)
            return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Caches/Vitrine")
        #else
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return URL(fileURLWithPath: xdg).appendingPathComponent("vitrine")
            }
            let home =
                environment["HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            return home.appendingPathComponent(".cache/vitrine")
        #endif
    }

    /// The folder of the harvests under way.
    package var harvests: URL { directory.appendingPathComponent("harvests", isDirectory: true) }

    /// Whether a name is a harvest's identifier (`PendingHarvest.newID`): 32 lower-case hex digits, so that no
    /// name read from a store can point outside `harvests/`.
    package static func isHarvestID(_ name: String) -> Bool {
        name.utf8.count == 32 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    package func pages(ofHarvest harvest: String) -> any HarvestPages {
        FileHarvestPages(
            folder: Self.isHarvestID(harvest)
                ? harvests.appendingPathComponent(harvest).path : harvests.appendingPathComponent("invalid").path)
    }

    package func drop(harvest: String) {
        guard Self.isHarvestID(harvest) else { return }
        try? FileManager.default.removeItem(at: harvests.appendingPathComponent(harvest))
    }
}

/// One harvest's pages: `{folder}/{2 hex}/{32 hex}.page`.
package struct FileHarvestPages: HarvestPages {
    package let folder: String

    /// What the first line of an entry says.
    private struct Header: Codable {
        var url: String
        var status: Int
        var headers: [String: String]
        /// The body's length in bytes: an entry whose body is not that long (cut, or edited) is a miss.
        var length: Int
    }

    /// The folder and file of the entry for `key`, as paths.
    private func entryPath(key: String) -> (folder: String, name: String, file: String) {
        let hash = Self.hash(key)
        let fanOut = folder + "/" + hash.prefix(2)
        return (fanOut, hash + ".page", fanOut + "/" + hash + ".page")
    }

    /// The header of the entry for `key` whose first bytes are `start` and whole size `size`, and where its body
    /// begins: only if the header names the key and the body is as long as it says.
    private static func header(of start: Data, key: String, size: Int) -> (header: Header, body: Data.Index)? {
        guard let newline = start.firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONDecoder().decode(Header.self, from: start[start.startIndex..<newline]),
            header.url == key, header.length == size - (newline - start.startIndex + 1)
        else { return nil }
        return (header, newline + 1)
    }

    package func response(for key: String) -> SourceResponse? {
        guard let data = FileManager.default.contents(atPath: entryPath(key: key).file),
            let (header, body) = Self.header(of: data, key: key, size: data.count)
        else { return nil }
        return SourceResponse(status: header.status, headers: header.headers, body: Data(data[body...]))
    }

    /// Whether an entry for `key` is there whole, as `response(for:)` would read it. Only the header line is read.
    package func contains(_ key: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: entryPath(key: key).file) else { return false }
        defer { try? handle.close() }
        guard let start = try? handle.read(upToCount: 64 << 10), let size = try? handle.seekToEnd() else {
            return false
        }
        return Self.header(of: start, key: key, size: Int(size)) != nil
    }

    package func store(_ response: SourceResponse, for key: String) {
        let header = Header(
            url: key, status: response.status, headers: response.headers.filter { $0.key != "set-cookie" },
            length: response.body.count)
        guard var line = try? JSONEncoder().encode(header) else { return }
        line.append(UInt8(ascii: "\n"))
        let (fanOut, name, target) = entryPath(key: key)
        let temporary =
            "\(fanOut)/.\(name).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: fanOut, withIntermediateDirectories: true)
            // The header line, then the body as it came: not copied into one buffer first.
            try UnsyncedFile.write([line, response.body], to: temporary, exclusive: true)
            if rename(temporary, target) != 0 { try? FileManager.default.removeItem(atPath: temporary) }
        } catch {
            // A cache that cannot be written only costs a resumed run a request.
            try? FileManager.default.removeItem(atPath: temporary)
        }
    }

    package func remove(_ key: String) {
        try? FileManager.default.removeItem(atPath: entryPath(key: key).file)
    }

    package var isEmpty: Bool {
        let fanOuts = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return !fanOuts.contains { fanOut in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + fanOut)) ?? []).contains {
                $0.hasSuffix(".page") && !$0.hasPrefix(".")
            }
        }
    }

    /// A key's fingerprint, as 32 hex digits.
    static func hash(_ text: String) -> String {
        var fingerprint = Fingerprint()
        fingerprint.combine(text)
        return fingerprint.description
    }
}
