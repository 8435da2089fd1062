import AccountHandoffSimulation
import Foundation
import FuzzSupport

/// libFuzzer's per-input entry point for the `receiver` target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzMain.execute(.receiver, data, size)
}

exit(FuzzMain.main(.receiver, testOneInput: fuzzOneInput))
