import Foundation
import VitrineCore
import VitrineFiles

/// A file written piece by piece into the staging folder, so that a big one (the CSV of a million rows) is never
/// whole in memory. Its bytes make its fingerprint as they pass, when the file has no other (a rendered file's is
/// what it was rendered from, which is cheaper than its bytes). One thread writes it at a time: the one that made
/// it, or whoever holds the `Locked` it is kept in.
package final class FilePieces: @unchecked Sendable {
    private let descriptor: Int32
    /// The bytes' fingerprint; `nil` when they are not hashed.
    private(set) var fingerprint: Fingerprint?
    package private(set) var size = 0
    /// Its modification time once finished (`modificationTime`).
    private(set) var modified: Int64 = 0
    private(set) var failure: (any Error)?

    /// - parameter exclusive: only when nothing is at `path` yet (a temporary file); never through a link.
    init(path: String, hashingBytes: Bool, exclusive: Bool = false) throws {
        fingerprint = hashingBytes ? Fingerprint() : nil
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (exclusive ? O_EXCL : O_TRUNC), 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Appends bytes to the file (after a failure, nothing more: the failure is reported when the file ends).
    package func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// `write` for bytes where they are.
    package func write(_ buffer: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        fingerprint?.combine(each: buffer)
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                return
            }
            offset += written
        }
        size += buffer.count
    }

    /// Closes the file, noting its modification time; its fingerprint then ends with its size.
    func finish() {
        modified = modificationTime(of: descriptor)
        close(descriptor)
        fingerprint?.combine(size)
    }
}
