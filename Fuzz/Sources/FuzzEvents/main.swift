import EventFuzzing
import Foundation

/// libFuzzer's per-input entry point for the `machines` event target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    EventMain.execute(.machines, data, size)
}

/// libFuzzer's custom mutator: mutates whole events (`EventMutator`).
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    EventMain.mutate(.machines, data, size, maxSize, seed)
}

/// libFuzzer's custom cross-over: splices scripts at event boundaries.
@_cdecl("LLVMFuzzerCustomCrossOver")
public func fuzzCrossOver(_ first: UnsafePointer<UInt8>?, _ firstSize: Int, _ second: UnsafePointer<UInt8>?, _ secondSize: Int,
                          _ out: UnsafeMutablePointer<UInt8>?, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    EventMain.crossOver(.machines, first, firstSize, second, secondSize, out, maxSize, seed)
}

exit(EventMain.main(.machines, testOneInput: fuzzOneInput))
