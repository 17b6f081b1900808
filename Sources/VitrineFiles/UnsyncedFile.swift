import Foundation

/// Writes a file with plain `write(2)` and no `fsync`: Foundation's `Data.write(to:)` syncs every file, which for
/// thousands of pages or cache entries costs more than the writing.
/// Callers make the result safe: the page cache renames a temporary file into place and drops an entry that does
/// not read; the output folder swaps a whole staged catalog in.
package enum UnsyncedFile {
    /// Returns the file's modification time as written (`modificationTime`).
    @discardableResult
    package static func write(_ data: some ContiguousBytes, to path: String, exclusive: Bool = false) throws -> Int64 {
        try write([data], to: path, exclusive: exclusive)
    }

    /// Writes `parts` one after the other into one file, never through a symbolic link; with `exclusive`, only
    /// when nothing is at `path` yet (a temporary file). Returns its modification time as written.
    @discardableResult
    package static func write(_ parts: [some ContiguousBytes], to path: String, exclusive: Bool = false) throws
        -> Int64
    {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (exclusive ? O_EXCL : O_TRUNC)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        for part in parts { try write(part, to: descriptor) }
        return modificationTime(of: descriptor)
    }

    private static func write(_ data: some ContiguousBytes, to descriptor: Int32) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }
}

/// A file's modification time in nanoseconds since 1970 (`st_mtim`).
package func modificationTime(_ status: stat) -> Int64 {
    Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
}

/// The modification time of the open file `descriptor`; 0 when it cannot be read.
package func modificationTime(of descriptor: Int32) -> Int64 {
    var status = stat()
    return fstat(descriptor, &status) == 0 ? modificationTime(status) : 0
}
