import Foundation
import VitrineCore

/// Bytes a display needs again at the end of an export but not in memory meanwhile (the search index's entries of
/// a million objects): appended in order to a file in the temporary folder, then read back through a memory map
/// whose pages are let go as reading moves on, so they never add up in the process's memory. The file's name is
/// removed as soon as it is made: it goes with the process however it ends.
///
/// Appended to from one thread; once mapped, read from any: the mapping never changes after `map`, and letting
/// pages go only drops them, to be read again from the file when next touched.
final class ScratchFile: @unchecked Sendable {
    private let descriptor: Int32
    private(set) var size = 0
    private var mapping: UnsafeRawBufferPointer?
    /// Bytes read since the pages were last let go, by every thread.
    private let readSinceRelease = Locked(0)

    init() throws(ExportError) {
        let directory = FileManager.default.temporaryDirectory.path
        var template = Array((directory + "/vitrine-scratch-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            let descriptor = mkstemp(base)
            if descriptor >= 0 { unlink(base) }
            return descriptor
        }
        guard descriptor >= 0 else {
            throw ExportError(.output("cannot make a scratch file in \(directory): \(Self.lastError)"))
        }
        self.descriptor = descriptor
    }

    deinit {
        if let mapping, let base = mapping.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), mapping.count)
        }
        close(descriptor)
    }

    /// Appends bytes at the end of the file.
    func append(_ bytes: [UInt8]) throws(ExportError) {
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure {
            throw ExportError(.output("cannot write a scratch file in the temporary folder: \(Self.text(failure))"))
        }
        size += bytes.count
    }

    /// Maps the file for reading, once everything is appended.
    func map() throws(ExportError) {
        guard mapping == nil, size > 0 else { return }
        guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            throw ExportError(.output("cannot read back a scratch file in the temporary folder: \(Self.lastError)"))
        }
        mapping = UnsafeRawBufferPointer(start: base, count: size)
    }

    /// The bytes at `range` (after `map`).
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        guard let mapping else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: mapping[range])
    }

    /// Counts `count` bytes read, and past `bound` since the last time lets go of the pages read so far.
    func noteRead(_ count: Int, releasingPast bound: Int) {
        let due = readSinceRelease.withLock { read in
            read += count
            guard read >= bound else { return false }
            read = 0
            return true
        }
        if due { release() }
    }

    /// Lets go of the pages read so far: they leave the process's memory (the system may keep them cached).
    func release() {
        guard let mapping, let base = mapping.baseAddress else { return }
        madvise(UnsafeMutableRawPointer(mutating: base), mapping.count, MADV_DONTNEED)
    }

    private static var lastError: String { text(errno) }

    private static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
