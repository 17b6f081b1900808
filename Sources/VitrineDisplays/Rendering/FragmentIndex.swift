import Foundation
import VitrineCore
import VitrineOutput

/// A folder of the catalog's fragment index (`artists.fragments`, `catalog.fragments` in the catalog's records):
/// for each page there, what it was made from, its size, and where each of its fragments is. The next export copies
/// a changed page's unchanged fragments (cards, object lines) out of the last run's page instead of rendering them
/// again (`TemplateFragments`).
///
/// Binary, little-endian: the line `vitrine fragments 1`, the directory's length (8 bytes), the directory (for each
/// page in name order: its name's length (2 bytes) and name, fingerprint (16), size (8), fragment count (4)), then
/// each page's fragments in the directory's order (key (16), start (4), length (4)), then the fingerprint (16) of
/// all the bytes before it, so a torn or edited index is never trusted. Made from what was rendered: the same
/// catalog gives the same bytes, whatever the runs before it.
enum FragmentIndex {
    /// The record of the catalog folder `folder` (`artists`).
    static func recordName(_ folder: String) -> String { folder + ".fragments" }
    static let header = Array("vitrine fragments 1\n".utf8)
    static let entrySize = 24
}

/// What an export records of a folder's pages as they are written, for the folder's fragment index. The pages'
/// fragments go to a scratch file past a megabyte, so a million objects' cards are never all in memory, and the
/// index is written a megabyte at a time from it at the end.
final class FragmentLog: Sendable {
    private struct State {
        /// Each page's fingerprint and size, and where its fragments are in the log (the scratch file, then `pending`).
        var pages: [String: (made: OutputManifest.Made, entries: Range<Int>)] = [:]
        var scratch: ScratchFile?
        var pending: [UInt8] = []

        var size: Int { (scratch?.size ?? 0) + pending.count }
    }

    private let state = Locked(State())
    /// Fragments held in memory before they go to the scratch file.
    static let inMemory = 1 << 20

    /// A page just rendered, with its fragments as the renderer placed them.
    func record(_ name: String, made: OutputManifest.Made, fragments: [RenderedFragment]) throws(ExportError) {
        var entries: [UInt8] = []
        entries.reserveCapacity(fragments.count * FragmentIndex.entrySize)
        // A fragment past `UInt32.max` into its file is not listed (it is rendered next time): the same every run.
        for fragment in fragments where fragment.end <= Int(UInt32.max) && fragment.start <= fragment.end {
            fragment.key.append(to: &entries)
            Self.append(UInt32(fragment.start), to: &entries)
            Self.append(UInt32(fragment.end - fragment.start), to: &entries)
        }
        try record(name, made: made, entries: entries)
    }

    /// A page kept from the last export, with the fragments it was listed with then.
    func record(_ name: String, made: OutputManifest.Made, entries: [UInt8]) throws(ExportError) {
        let spilled = state.withLock { state in
            Result { () throws(ExportError) in
                let start = state.size
                state.pending += entries
                state.pages[name] = (made, start..<state.size)
                guard state.pending.count >= Self.inMemory else { return }
                if state.scratch == nil { state.scratch = try ScratchFile() }
                try state.scratch?.append(state.pending)
                state.pending.removeAll(keepingCapacity: true)
            }
        }
        try spilled.get()
    }

    /// Writes the index of the catalog folder `catalogFolder` (`artists`) into the catalog's records: every page
    /// recorded, in name order.
    func write(of catalogFolder: String, in folder: OutputFolder) throws(ExportError) {
        let (pages, scratch, pending) = state.withLock { state in
            defer { state = State() }
            return (state.pages.sorted { $0.key < $1.key }, state.scratch, state.pending)
        }
        if let scratch {
            try scratch.append(pending)
            try scratch.map()
        }
        var directory: [UInt8] = []
        for (name, page) in pages {
            let name = Array(name.utf8.prefix(Int(UInt16.max)))
            withUnsafeBytes(of: UInt16(name.count).littleEndian) { directory.append(contentsOf: $0) }
            directory += name
            page.made.fingerprint.append(to: &directory)
            withUnsafeBytes(of: UInt64(page.made.size).littleEndian) { directory.append(contentsOf: $0) }
            Self.append(UInt32(page.entries.count / FragmentIndex.entrySize), to: &directory)
        }
        try folder.writeRecord(FragmentIndex.recordName(catalogFolder)) { pieces throws(ExportError) in
            var contents = Fingerprint()
            var size = 0
            func write(_ bytes: [UInt8]) {
                bytes.withUnsafeBytes { contents.combine(each: $0) }
                size += bytes.count
                pieces.write(bytes)
            }
            var bytes = FragmentIndex.header
            withUnsafeBytes(of: UInt64(directory.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes += directory
            for (_, page) in pages {
                if let scratch {
                    bytes.append(contentsOf: scratch.bytes(page.entries))
                } else {
                    bytes += pending[page.entries]
                }
                if bytes.count >= Self.inMemory {
                    write(bytes)
                    bytes.removeAll(keepingCapacity: true)
                    scratch?.release()
                }
            }
            write(bytes)
            contents.combine(size)
            var trailer: [UInt8] = []
            contents.append(to: &trailer)
            pieces.write(trailer)
        }
    }

    private static func append(_ number: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// The last export's fragment index of a folder of the live catalog: which fragments each of its pages holds.
/// Trusted only as far as it vouches for itself and the live manifest vouches for its pages: its bytes must match
/// its trailing fingerprint, and a page counts only while the manifest lists it as made from the same fingerprint,
/// at the same size, and the file is still the one written (`Made.describes`, as for a kept file). Anything else (no index, a damaged
/// one, a page written since) gives no fragments: the pages are rendered.
final class FragmentLibrary: Sendable {
    private struct Page {
        let made: OutputManifest.Made
        /// Where its fragments start in the index, and how many there are.
        let entries: Int
        let count: Int
    }

    /// The folder in the live catalog (`/site/artists`).
    private let livePath: String
    private let pages: [String: Page]
    /// The index, open for reading each page's fragments when asked.
    private let descriptor: Int32

    /// The index of `folder` (`artists`) in the output folder's live catalog; `nil` when there is none to trust.
    init?(_ folder: String, in output: OutputFolder) {
        livePath = output.destination.path + "/" + folder
        guard let path = output.lastRecord(FragmentIndex.recordName(folder)) else { return nil }
        descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= 16,
            let trailer = Self.read(descriptor, at: Int(status.st_size) - 16, count: 16),
            let fingerprint = trailer.withUnsafeBytes(Fingerprint.init(bytes:))
        else {
            close(descriptor)
            return nil
        }
        let listed = OutputManifest.Made(fingerprint: fingerprint, size: Int(status.st_size) - 16)
        guard let pages = Self.directory(descriptor, listed: listed, folder: folder, lastMade: output.lastMade) else {
            close(descriptor)
            return nil
        }
        self.pages = pages
    }

    deinit {
        close(descriptor)
    }

    /// The fragments listed for the page `name` when it was made from `fingerprint`: a page kept from the last
    /// export keeps them.
    func entries(of name: String, fingerprint: Fingerprint) -> (made: OutputManifest.Made, entries: [UInt8])? {
        guard let page = pages[name], page.made.fingerprint == fingerprint,
            let entries = Self.read(descriptor, at: page.entries, count: page.count * FragmentIndex.entrySize)
        else { return nil }
        return (page.made, entries)
    }

    /// The fragments of these pages that can be copied into a page being rendered; `nil` when there are none.
    func known(_ names: [String]) -> KnownFragments? {
        var places: [Fingerprint: KnownFragments.Place] = [:]
        var files: [(descriptor: Int32, size: Int)] = []
        for name in names {
            guard let page = pages[name], page.count > 0,
                let entries = Self.read(descriptor, at: page.entries, count: page.count * FragmentIndex.entrySize)
            else { continue }
            let file = open(livePath + "/" + name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard file >= 0 else { continue }
            var status = stat()
            guard fstat(file, &status) == 0, page.made.describes(status) else {
                close(file)
                continue
            }
            let number = files.count
            files.append((file, page.made.size))
            places.reserveCapacity(places.count + page.count)
            entries.withUnsafeBytes { bytes in
                for offset in stride(from: 0, to: bytes.count, by: FragmentIndex.entrySize) {
                    let entry = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + FragmentIndex.entrySize)])
                    guard let key = Fingerprint(bytes: entry) else { continue }
                    let start = Int(UInt32(littleEndian: entry.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
                    let count = Int(UInt32(littleEndian: entry.loadUnaligned(fromByteOffset: 20, as: UInt32.self)))
                    guard start + count <= page.made.size else { continue }
                    places[key] = KnownFragments.Place(file: number, start: start, count: count)
                }
            }
        }
        return files.isEmpty ? nil : KnownFragments(places: places, files: files)
    }

    /// Reads and checks the index: its bytes before the trailer are the ones its trailer's fingerprint (`listed`)
    /// was made from, its header is this version's, and its directory is whole. Returns its pages that the manifest
    /// lists as they were made.
    private static func directory(
        _ descriptor: Int32, listed: OutputManifest.Made, folder: String,
        lastMade: (String) -> OutputManifest.Made?
    ) -> [String: Page]? {
        var contents = Fingerprint()
        var offset = 0
        while offset < listed.size {
            guard let chunk = read(descriptor, at: offset, count: min(FragmentLog.inMemory, listed.size - offset))
            else { return nil }
            chunk.withUnsafeBytes { contents.combine(each: $0) }
            offset += chunk.count
        }
        contents.combine(listed.size)
        let headerSize = FragmentIndex.header.count + 8
        guard contents == listed.fingerprint, let head = read(descriptor, at: 0, count: headerSize),
            head.starts(with: FragmentIndex.header)
        else { return nil }
        let length = head.withUnsafeBytes {
            Int(
                truncatingIfNeeded: UInt64(
                    littleEndian: $0.loadUnaligned(fromByteOffset: headerSize - 8, as: UInt64.self)))
        }
        guard length >= 0, length <= listed.size - headerSize,
            let directory = read(descriptor, at: headerSize, count: length)
        else { return nil }
        return directory.withUnsafeBytes { bytes -> [String: Page]? in
            var offset = 0
            func take(_ count: Int) -> UnsafeRawBufferPointer? {
                guard count >= 0, offset + count <= bytes.count else { return nil }
                defer { offset += count }
                return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
            }
            var entries = headerSize + length
            var pages: [String: Page] = [:]
            while offset < bytes.count {
                guard let nameLength = take(2).map({ Int(UInt16(littleEndian: $0.loadUnaligned(as: UInt16.self))) }),
                    let name = take(nameLength).map({ String(decoding: $0, as: UTF8.self) }),
                    let fingerprint = take(16).flatMap(Fingerprint.init(bytes:)),
                    let size = take(8).map({
                        Int(truncatingIfNeeded: UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)))
                    }),
                    let count = take(4).map({ Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) })
                else { return nil }
                let made = OutputManifest.Made(fingerprint: fingerprint, size: size)
                if OutputManifest.isSafe(name), !name.contains("/"), let last = lastMade(folder + "/" + name),
                    last.isAlike(made)
                {
                    pages[name] = Page(made: last, entries: entries, count: count)
                }
                entries += count * FragmentIndex.entrySize
            }
            return entries == listed.size ? pages : nil
        }
    }

    /// `count` bytes of the file from `offset`; `nil` when it has fewer.
    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { return nil }
            done += read
        }
        return bytes
    }
}
