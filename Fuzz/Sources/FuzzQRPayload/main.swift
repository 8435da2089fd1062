import AccountHandoffSimulation
import Foundation
import FuzzSupport

/// libFuzzer's per-input entry point for the `qrPayload` target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzMain.execute(.qrPayload, data, size)
}

exit(FuzzMain.main(.qrPayload, testOneInput: fuzzOneInput))
