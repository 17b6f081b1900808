import Foundation

/// libFuzzer's driver, called from a Swift `main`: SwiftPM gives every executable a `main` of its own, so
/// libFuzzer's is never linked, and its driver is started from here instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process's arguments (`-max_total_time=60 corpus/`, say), feeding `body` every input.
package func runFuzzer(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(llvmFuzzerRunDriver(&argc, &argv, body))
}

/// The input as `Data` (libFuzzer may pass a null pointer for an empty input).
package func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let start, count > 0 else { return Data() }
    return Data(bytes: start, count: count)
}
