import AccountHandoffSimulation
import Foundation
import FuzzSupport

/// libFuzzer's per-input entry point for the `session` target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzMain.execute(.session, data, size)
}

exit(FuzzMain.main(.session, testOneInput: fuzzOneInput))
