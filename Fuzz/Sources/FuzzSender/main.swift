import AccountHandoffSimulation
import Foundation
import FuzzSupport

/// libFuzzer's per-input entry point for the `sender` target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzMain.execute(.sender, data, size)
}

exit(FuzzMain.main(.sender, testOneInput: fuzzOneInput))
