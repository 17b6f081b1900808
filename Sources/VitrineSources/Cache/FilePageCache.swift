import Foundation
import VitrineCore

/// The page cache on disk: one file per response, named by a hash of the request's redacted URL, under a
/// two-character fan-out folder (a Met harvest stores half a million objects).
///
/// A file holds one JSON line (the URL, status, headers and when it was stored) and then the body. Files are
/// written to a temporary name and renamed, so a run killed at any moment leaves whole entries or none. The
/// key never holds a secret: keys in query strings are redacted first, and keys sent in headers (Unsplash) are
/// not part of it. The URL inside the file is compared on read, so a hash collision is a miss, not a wrong page.
package struct FilePageCache: PageCache {
    package let directory: URL
    package var location: String { directory.path }
    /// How old an entry may be and still be used (`--ttl`); `--offline` uses entries of any age.
    package let timeToLive: TimeInterval
    /// Ignores age (`--offline`).
    package let ignoresAge: Bool
    /// The current time; fixed in tests.
    package let now: @Sendable () -> Date

    package init(
        directory: URL, timeToLive: TimeInterval, ignoresAge: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory
        self.timeToLive = timeToLive
        self.ignoresAge = ignoresAge
        self.now = now
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

    /// What the first line of an entry says.
    private struct Header: Codable {
        var url: String
        var status: Int
        var headers: [String: String]
        var stored: Double
    }

    /// The cache key: the request as it may be shown, without secrets.
    package static func key(for request: SourceRequest) -> String {
        request.redactedURL
    }

    /// The file of a request's entry.
    package func file(for request: SourceRequest) -> URL {
        URL(fileURLWithPath: entryPath(key: Self.key(for: request)).file)
    }

    /// The folder and file of the entry for `key`, as paths: built as strings, since every request looks its
    /// entry up and every response stores one.
    private func entryPath(key: String) -> (folder: String, name: String, file: String) {
        let hash = Self.hash(key)
        let folder = directory.path + "/" + hash.prefix(2)
        return (folder, hash + ".page", folder + "/" + hash + ".page")
    }

    package func response(for request: SourceRequest) -> SourceResponse? {
        let key = Self.key(for: request)
        guard let data = FileManager.default.contents(atPath: entryPath(key: key).file),
            let newline = data.firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONDecoder().decode(Header.self, from: data[data.startIndex..<newline]),
            header.url == key
        else { return nil }
        if !ignoresAge && now().timeIntervalSince1970 - header.stored > timeToLive { return nil }
        return SourceResponse(status: header.status, headers: header.headers, body: Data(data[(newline + 1)...]))
    }

    package func store(_ response: SourceResponse, for request: SourceRequest) {
        let key = Self.key(for: request)
        let header = Header(
            url: key, status: response.status, headers: response.headers.filter { $0.key != "set-cookie" },
            stored: now().timeIntervalSince1970)
        guard var line = try? JSONEncoder().encode(header) else { return }
        line.append(UInt8(ascii: "\n"))
        let (folder, name, target) = entryPath(key: key)
        let temporary =
            "\(folder)/.\(name).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // The header line, then the body as it came: not copied into one buffer first.
            try UnsyncedFile.write([line, response.body], to: temporary)
            if rename(temporary, target) != 0 { try? FileManager.default.removeItem(atPath: temporary) }
        } catch {
            // A cache that cannot be written only costs a later run a request.
            try? FileManager.default.removeItem(atPath: temporary)
        }
    }

    package func remove(_ request: SourceRequest) {
        try? FileManager.default.removeItem(atPath: entryPath(key: Self.key(for: request)).file)
    }

    /// 128 bits of FNV-1a (two 64-bit passes with different offsets), as hex.
    static func hash(_ text: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = second &+ (second << 7)
        }
        return Fingerprint.hex(first, second)
    }
}
