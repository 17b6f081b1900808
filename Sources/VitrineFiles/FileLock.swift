import Foundation

/// An exclusive `flock` on a lock file, taken without waiting: what keeps a second export out of an output
/// folder or a collection store. The kernel releases it when the descriptor is closed or the process ends,
/// however it ends (SIGKILL included), so no stale lock is ever left behind.
package enum FileLock {
    /// The outcome of trying to take a lock.
    package enum Attempt {
        /// The lock is held through this open descriptor; close it to release.
        case held(Int32)
        /// Another process holds it.
        case busy
        /// The lock file cannot be opened; the text says why.
        case unavailable(String)
    }

    /// Opens (creating) `path` and tries to take its lock.
    package static func take(_ path: String) -> Attempt {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return .unavailable(String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return .busy
        }
        return .held(descriptor)
    }
}
