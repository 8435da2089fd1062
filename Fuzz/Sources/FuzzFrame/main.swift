import AccountHandoffSimulation
import Foundation
import FuzzSupport

/// libFuzzer's per-input entry point for the `frame` target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzMain.execute(.frame, data, size)
}

exit(FuzzMain.main(.frame, testOneInput: fuzzOneInput))
