import VitrineFuzzDriver
import VitrineFuzzTargets

/// libFuzzer target: every JSON payload decoder (`FuzzTargets.json`). Built and run by `Scripts/fuzz.sh`.
@main
enum Fuzz {
    static func main() { runFuzzer(fuzzOne) }
}

/// The name libFuzzer's driver links against; `main` hands the same function to the driver.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzTargets.json(fuzzInput(start, count))
    return 0
}
