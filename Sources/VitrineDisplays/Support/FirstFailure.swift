import VitrineCore

/// The first error of parallel work, kept so that the others can stop early.
final class FirstFailure: Sendable {
    private let first = Locked<ExportError?>(nil)

    var isSet: Bool { first.withLock { $0 != nil } }
    var error: ExportError? { first.current }

    func record(_ error: ExportError) {
        first.withLock { if $0 == nil { $0 = error } }
    }
}
