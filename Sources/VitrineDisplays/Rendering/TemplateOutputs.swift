import VitrineCore
import VitrineOutput

/// Rendered bytes, escaped as they are appended: runs of plain bytes are copied whole, so a value with nothing to
/// escape (most titles, every URL) costs one copy.
struct RenderedBytes: TemplateOutput {
    private(set) var bytes: [UInt8] = []
    /// Bytes let go of before `bytes` (written to their file): where `bytes` starts in the whole.
    private(set) var written = 0
    /// The outermost fragments rendered or copied, in order, by where they are in the whole.
    private(set) var fragments: [RenderedFragment] = []
    /// Where each fragment being rendered started (a fragment inside another is part of it, and not listed).
    private var fragmentStarts: [Int] = []

    init(capacity: Int = 8_192) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(text: [UInt8]) {
        bytes.append(contentsOf: text)
    }

    mutating func append(number: Int) {
        bytes.append(contentsOf: String(number).utf8)
    }

    /// Lets go of the bytes so far, keeping the buffer.
    mutating func removeAll() {
        written += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func section(_ count: Int) {}

    mutating func startFragment(_ key: Fingerprint) {
        fragmentStarts.append(written + bytes.count)
    }

    mutating func endFragment(_ key: Fingerprint) {
        guard let start = fragmentStarts.popLast() else { return }
        if fragmentStarts.isEmpty {
            fragments.append(RenderedFragment(key: key, start: start, end: written + bytes.count))
        }
    }

    mutating func append(fragment: UnsafeRawBufferPointer, key: Fingerprint) {
        let start = written + bytes.count
        bytes.append(contentsOf: fragment)
        if fragmentStarts.isEmpty {
            fragments.append(RenderedFragment(key: key, start: start, end: written + bytes.count))
        }
    }

    mutating func append(_ text: String, escaping: TemplateEscaping) {
        var text = text
        text.withUTF8 { utf8 in
            switch escaping {
            case .none: bytes.append(contentsOf: utf8)
            case .html: appendHTML(utf8)
            case .markdown: appendMarkdown(utf8, isAddress: false)
            case .markdownAddress: appendMarkdown(utf8, isAddress: true)
            }
        }
    }

    /// `&<>"'` as entities, as every Mustache implementation escapes HTML.
    private mutating func appendHTML(_ utf8: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in 0..<utf8.count {
            let entity: StaticString
            switch utf8[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default: continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            entity.withUTF8Buffer { bytes.append(contentsOf: $0) }
            start = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }

    /// Every ASCII character that could start Markdown or HTML, or a link GitHub makes of a bare address in text,
    /// gets a backslash (`@` a word joiner; an address, `isAddress`, is a link already); every line break (LF, CR,
    /// CR LF, VT, FF, NEL, U+2028, U+2029) becomes one space, so a value never starts a line of its own.
    private mutating func appendMarkdown(_ utf8: UnsafeBufferPointer<UInt8>, isAddress: Bool) {
        var start = 0
        var index = 0
        let space = UInt8(ascii: " ")
        while index < utf8.count {
            let byte = utf8[index]
            var skip = 1
            var replacement: UInt8?
            switch byte {
            case 0x0A, 0x0B, 0x0C:
                replacement = space
            case 0x0D:
                replacement = space
                if index + 1 < utf8.count, utf8[index + 1] == 0x0A { skip = 2 }
            case 0xC2 where index + 1 < utf8.count && utf8[index + 1] == 0x85:
                replacement = space
                skip = 2
            case 0xE2
            where index + 2 < utf8.count && utf8[index + 1] == 0x80
                && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                replacement = space
                skip = 3
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
                UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "#"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: "~"), UInt8(ascii: "&"),
                // What GitHub's Markdown makes a link of by itself: `:` of `://`, `.` of `www.`.
                UInt8(ascii: ":")
            where !isAddress && index + 2 < utf8.count && utf8[index + 1] == UInt8(ascii: "/")
                && utf8[index + 2] == UInt8(ascii: "/"),
                UInt8(ascii: ".")
            where !isAddress && index >= 3 && utf8[(index - 3)..<index].allSatisfy { $0 | 0x20 == UInt8(ascii: "w") }:
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(UInt8(ascii: "\\"))
                start = index
                index += 1
                continue
            case UInt8(ascii: "@") where !isAddress:
                // An address is linked whatever the escapes: an invisible word joiner (U+2060) before `@` stops it.
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                bytes.append(contentsOf: [0xE2, 0x81, 0xA0])
                start = index
                index += 1
                continue
            default:
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            if let replacement { bytes.append(replacement) }
            index += skip
            start = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
}

/// What a page would be rendered from, without rendering it: every value placed and every section's count.
/// With the template's own fingerprint, it decides whether last run's file can be kept.
/// A fragment counts by its key, whether it is rendered or copied: what is inside it is not walked.
struct RenderedFingerprint: TemplateOutput {
    var fingerprint: Fingerprint
    /// How many fragments the walk is inside.
    private var depth = 0

    init(fingerprint: Fingerprint) {
        self.fingerprint = fingerprint
    }

    mutating func append(text: [UInt8]) {}

    mutating func append(_ text: String, escaping: TemplateEscaping) {
        guard depth == 0 else { return }
        fingerprint.combine(byte: 1)
        fingerprint.combine(text)
    }

    mutating func append(number: Int) {
        guard depth == 0 else { return }
        fingerprint.combine(byte: 4)
        fingerprint.combine(number)
    }

    mutating func section(_ count: Int) {
        guard depth == 0 else { return }
        fingerprint.combine(byte: 9)
        fingerprint.combine(count)
    }

    mutating func startFragment(_ key: Fingerprint) {
        append(fragment: UnsafeRawBufferPointer(start: nil, count: 0), key: key)
        depth += 1
    }

    mutating func endFragment(_ key: Fingerprint) {
        depth = max(0, depth - 1)
    }

    mutating func append(fragment: UnsafeRawBufferPointer, key: Fingerprint) {
        guard depth == 0 else { return }
        fingerprint.combine(byte: 12)
        fingerprint.combine(key)
    }
}

/// A page's bytes and its fingerprint, from one walk. With `pieces` (a page too big to hold whole, such as a letter
/// of a million-object Markdown catalog), the bytes are written to their file a megabyte at a time as they come.
struct RenderedPage: TemplateOutput {
    private(set) var page: RenderedBytes
    private(set) var values: RenderedFingerprint
    let pieces: FilePieces?

    /// Bytes gathered before they are written to `pieces`.
    static let piece = 1 << 20

    init(fingerprint: Fingerprint, pieces: FilePieces? = nil) {
        self.pieces = pieces
        page = RenderedBytes(capacity: pieces == nil ? 8_192 : Self.piece + 65_536)
        values = RenderedFingerprint(fingerprint: fingerprint)
    }

    mutating func append(text: [UInt8]) {
        page.append(text: text)
        flushIfFull()
    }

    mutating func append(_ text: String, escaping: TemplateEscaping) {
        page.append(text, escaping: escaping)
        values.append(text, escaping: escaping)
        flushIfFull()
    }

    mutating func append(number: Int) {
        page.append(number: number)
        values.append(number: number)
    }

    mutating func section(_ count: Int) {
        values.section(count)
    }

    mutating func startFragment(_ key: Fingerprint) {
        page.startFragment(key)
        values.startFragment(key)
    }

    mutating func endFragment(_ key: Fingerprint) {
        page.endFragment(key)
        values.endFragment(key)
    }

    mutating func append(fragment: UnsafeRawBufferPointer, key: Fingerprint) {
        page.append(fragment: fragment, key: key)
        values.append(fragment: fragment, key: key)
        flushIfFull()
    }

    /// Writes what is gathered to `pieces`.
    mutating func flush() {
        guard let pieces else { return }
        pieces.write(page.bytes)
        page.removeAll()
    }

    private mutating func flushIfFull() {
        if pieces != nil, page.bytes.count >= Self.piece { flush() }
    }
}
