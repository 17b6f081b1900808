import CBuildIdentity
import Foundation
import VitrineCore

/// What tells one build of Vitrine from another: the running executable's build id, which the linker derives from
/// its contents (else the executable's bytes). Every kept page's fingerprint starts from it, so a re-run after an
/// upgrade renders every page again, as a fresh export would, whatever changed in escaping, URLs or thumbnails.
package enum BuildIdentity {
    package static let current: Fingerprint = {
        var fingerprint = Fingerprint()
        if let identity = linked {
            fingerprint.combine(bytes: identity)
        } else if let executable = Bundle.main.executableURL, let bytes = try? Data(contentsOf: executable) {
            fingerprint.combine(bytes: bytes)
        } else {
            // Neither: every page is rendered again on every run, which is never wrong.
            var random = SystemRandomNumberGenerator()
            fingerprint.combine(field: Int(truncatingIfNeeded: random.next()))
        }
        return fingerprint
    }()

    /// The build id the linker wrote into the executable; `nil` when it wrote none.
    package static var linked: [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBufferPointer { vitrine_build_identity($0.baseAddress, $0.count) }
        return length > 0 ? Array(buffer.prefix(length)) : nil
    }
}
