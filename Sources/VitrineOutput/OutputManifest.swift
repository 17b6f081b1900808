import Foundation
import VitrineCore
import VitrineFiles

/// The files the last export wrote into an output folder, listed in its records' `manifest` (`CatalogRecords`,
/// beside the folder): the only files the next export may replace or remove. Anything else in the folder is the
/// user's, and an export that would replace it stops and names it (unless told `--force`).
///
/// Each line is a path, and for a rendered page the fingerprint of what it was made from, its size and its
/// modification time: a re-run keeps a file whose fingerprint has not changed (and which is still the file written:
/// same size, same modification time) instead of rendering it again.
package enum OutputManifest {
    package static let fileName = "manifest"
    /// Where Vitrine before its records folder kept the manifest: in the catalog itself. Read when a catalog has no
    /// records yet; never written.
    package static let legacyFileName = ".vitrine-manifest"
    static let header = "# vitrine manifest 3: the files the last export wrote here; anything else is yours"

    /// What a rendered file was made from, how many bytes it had and when it was last modified.
    package struct Made: Sendable, Equatable {
        package var fingerprint: Fingerprint
        package var size: Int
        /// The file's modification time in nanoseconds since 1970, as written; 0 when not known (a line by an older
        /// Vitrine), and then no file is taken for it. A backup restored over the site keeps its pages' sizes but
        /// not their times, so a page that changed at the same size is never kept for the one listed.
        package var modified: Int64

        package init(fingerprint: Fingerprint, size: Int, modified: Int64 = 0) {
            self.fingerprint = fingerprint
            self.size = size
            self.modified = modified
        }

        /// Reads a manifest line's fields after its path: 32 hex digits, a tab, the size in decimal, then (from
        /// manifest 3) a tab and the modification time in decimal.
        init?(fields: UnsafeBufferPointer<UInt8>) {
            guard fields.count > 33, fields[32] == 0x09,
                let fingerprint = Fingerprint(hex: UnsafeBufferPointer(rebasing: fields[..<32]))
            else { return nil }
            let numbers = UnsafeBufferPointer(rebasing: fields[33...])
                .split(separator: 0x09, omittingEmptySubsequences: false)
            guard (1...2).contains(numbers.count), let size = Self.decimal(numbers[0]) else { return nil }
            let modified = numbers.count == 2 ? Self.decimal(numbers[1]) : 0
            guard let modified else { return nil }
            self.init(fingerprint: fingerprint, size: size, modified: Int64(modified))
        }

        private static func decimal(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
            guard !digits.isEmpty else { return nil }
            var number = 0
            for byte in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), number < Int.max / 10 - 9 else {
                    return nil
                }
                number = number * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return number
        }

        /// Whether two files were made alike: from the same fingerprint, at the same size (whenever written).
        package func isAlike(_ other: Made) -> Bool {
            fingerprint == other.fingerprint && size == other.size
        }

        /// Whether `status` (from `lstat`) is of the file this describes: a plain file (not a link) of its size,
        /// last modified when it was written.
        package func describes(_ status: stat) -> Bool {
            status.st_mode & S_IFMT == S_IFREG && Int(status.st_size) == size && modified != 0
                && modificationTime(status) == modified
        }
    }

    /// Reads the folder's manifest line by line, as bytes: a 100,000-page gallery's manifest is 100,000 lines.
    /// `reserve` is told how many lines it has first, so that a table is made at its size once (grown by doubling,
    /// it would be hashed again at each growth); then `line` gets each safe path with its fingerprint and size
    /// (`nil`: listed without). Returns whether the folder has a manifest.
    @discardableResult
    static func scan(
        _ path: String?, reserve: (Int) -> Void = { _ in },
        _ line: (UnsafeBufferPointer<UInt8>, Made?) -> Void
    ) -> Bool {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return false }
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            reserve(bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 })
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                var text = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if text.last == 0x0D { text = UnsafeBufferPointer(rebasing: text.dropLast()) }
                start = end + 1
                guard let first = text.first, first != UInt8(ascii: "#") else { continue }
                let tab = text.firstIndex(of: 0x09) ?? text.endIndex
                let path = UnsafeBufferPointer(rebasing: text[..<tab])
                // A hand-edited or hostile manifest must not point outside the folder.
                guard isSafe(bytes: path) else { continue }
                line(path, Made(fields: UnsafeBufferPointer(rebasing: text[min(tab + 1, text.endIndex)...])))
            }
        }
        return true
    }

    /// Whether the files the manifest at `path` lists are in `catalog` as it wrote them: each a plain file (not a
    /// link), of the size and modification time listed when it has them. With `missingAllowed`, a listed file that is not there (the user
    /// removed it) does not count against it, but one file at least must be there. A manifest that lists nothing
    /// bears out nothing.
    static func bearsOut(_ path: String, in catalog: String, missingAllowed: Bool = false) -> Bool {
        var present = 0
        var borneOut = true
        let found = scan(path) { file, made in
            guard borneOut else { return }
            var status = stat()
            let name = catalog + "/" + String(decoding: file, as: UTF8.self)
            guard lstat(name, &status) == 0 else {
                borneOut = missingAllowed
                return
            }
            present += 1
            borneOut = made.map { $0.describes(status) } ?? (status.st_mode & S_IFMT == S_IFREG)
        }
        return found && borneOut && present > 0
    }

    /// Where the manifest of the catalog folder `catalog` is: in its records, else (written by an older Vitrine) in
    /// the folder itself; `nil` when it has none.
    static func path(ofCatalog catalog: String, output: URL) -> String? {
        if let records = CatalogRecords(of: catalog, output: output) {
            let path = records.path(fileName)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        let legacy = catalog + "/" + legacyFileName
        return FileManager.default.fileExists(atPath: legacy) ? legacy : nil
    }

    /// Writes a manifest into the records folder `folder` atomically: a temporary file, then one rename. `lines` hands each path, in
    /// order, with its fingerprint and size (`nil`: none) to the function it is given. Written a megabyte at a
    /// time (`LineBuffer`): a million-page gallery's manifest is never whole in memory.
    static func write(
        in folder: URL, lines: ((UnsafeBufferPointer<UInt8>, Made?) -> Void) -> Void
    ) throws {
        let temporary = folder.appendingPathComponent(fileName + ".tmp")
        // A file or link already there is removed (the link itself), and the temporary file made anew.
        unlink(temporary.path)
        let file = try FilePieces(path: temporary.path, hashingBytes: false, exclusive: true)
        var buffer = LineBuffer(file: file)
        defer { buffer.release() }
        buffer.append(Array(header.utf8) + [0x0A])
        lines { path, made in buffer.append(path, made) }
        buffer.flush()
        file.finish()
        if let failure = file.failure { throw failure }
        guard rename(temporary.path, folder.appendingPathComponent(fileName).path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder.path])
        }
    }

    /// A relative path that stays inside the folder: not empty, not absolute, no `.` or `..` component, no NUL
    /// or tab. Checked byte by byte: a million-page manifest is read on every re-run.
    package static func isSafe(_ path: String) -> Bool {
        isSafe(bytes: path.utf8)
    }

    /// `isSafe` for a path's UTF-8 bytes.
    static func isSafe(bytes path: some Sequence<UInt8>) -> Bool {
        var componentLength = 0
        var dots = 0
        for byte in path {
            switch byte {
            case 0, 0x09:
                return false
            case UInt8(ascii: "/"):
                // An empty component (a leading `/`: an absolute path) or `.` or `..` lead out of place.
                if componentLength == 0 || (componentLength == dots && dots <= 2) { return false }
                (componentLength, dots) = (0, 0)
            case UInt8(ascii: "."):
                componentLength += 1
                dots += 1
            default:
                componentLength += 1
            }
        }
        return componentLength > 0 && !(componentLength == dots && dots <= 2)
    }
}

/// A manifest's lines, each written into a megabyte's buffer where it goes (the path, 32 hex digits, the size), the
/// buffer written to the file when full. Not an array appended to a byte or a field at a time: captured with its
/// count by the function handing the lines over, it would have every access checked, alone on a core at the commit.
private struct LineBuffer {
    static let chunk = 1 << 20
    let file: FilePieces
    private var capacity = chunk + 4_096
    private var buffer: UnsafeMutablePointer<UInt8>
    private var used = 0

    init(file: FilePieces) {
        self.file = file
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    /// Room for `count` more bytes: the buffer written out first when they would not fit, and made larger for a line
    /// longer than it.
    private mutating func reserve(_ count: Int) {
        guard used + count > capacity else { return }
        flush()
        if count > capacity {
            buffer.deallocate()
            capacity = count
            buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        }
    }

    mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        for byte in bytes {
            buffer[used] = byte
            used += 1
        }
    }

    /// A line: the path, then (for a rendered file) a tab, its fingerprint's 32 hex digits, a tab, its size, a tab
    /// and its modification time.
    mutating func append(_ path: UnsafeBufferPointer<UInt8>, _ made: OutputManifest.Made?) {
        // At most 77 bytes besides the path: three tabs, 32 digits, 20 digits each of size and time, a newline.
        reserve(path.count + 77)
        if let source = path.baseAddress { (buffer + used).update(from: source, count: path.count) }
        used += path.count
        if let made {
            buffer[used] = 0x09
            made.fingerprint.writeHex(to: buffer + used + 1)
            buffer[used + 33] = 0x09
            used += 34
            append(decimal: made.size)
            buffer[used] = 0x09
            used += 1
            append(decimal: Int(made.modified))
        }
        buffer[used] = 0x0A
        used += 1
        if used >= Self.chunk { flush() }
    }

    private mutating func append(decimal number: Int) {
        var digits = String(number)
        digits.withUTF8 { digits in
            if let source = digits.baseAddress { (buffer + used).update(from: source, count: digits.count) }
            used += digits.count
        }
    }

    mutating func flush() {
        file.write(UnsafeRawBufferPointer(start: buffer, count: used))
        used = 0
    }

    func release() {
        buffer.deallocate()
    }
}
