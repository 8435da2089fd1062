import Testing
@testable import AccountHandoff

/// `ConstantTime.equal` semantics for both of its entry points, and `ConstantTime.isZero`.
@Suite struct ConstantTimeTests {
    @Test func equalArraysAreEqual() {
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equal([UInt8](repeating: 0xab, count: 1000), [UInt8](repeating: 0xab, count: 1000)))
    }

    @Test func emptyArraysAreEqual() {
        #expect(ConstantTime.equal([], []))
        #expect(ConstantTime.equal(UnsafeRawBufferPointer(start: nil, count: 0), UnsafeRawBufferPointer(start: nil, count: 0)))
    }

    @Test func aDifferenceInAnyByteMakesThemUnequal() {
        let reference = [UInt8](repeating: 0x5a, count: 64)
        for index in reference.indices {
            for bit in 0..<8 {
                var changed = reference
                changed[index] ^= 1 << bit
                #expect(!ConstantTime.equal(reference, changed), "byte \(index) bit \(bit)")
            }
        }
    }

    @Test func differentLengthsAreUnequalEvenWithACommonPrefix() {
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equal([1, 2], [1, 2, 3]))
        #expect(!ConstantTime.equal([], [0]))
        #expect(!ConstantTime.equal([0], []))
    }

    @Test func rawBufferEntryPointAgreesWithArrays() {
        let left: [UInt8] = [9, 8, 7]
        let right: [UInt8] = [9, 8, 7]
        let other: [UInt8] = [9, 8, 6]
        left.withUnsafeBytes { l in
            right.withUnsafeBytes { r in #expect(ConstantTime.equal(l, r)) }
            other.withUnsafeBytes { o in #expect(!ConstantTime.equal(l, o)) }
            #expect(!ConstantTime.equal(l, UnsafeRawBufferPointer(rebasing: l.dropLast())))
        }
    }

    /// Any set bit anywhere makes a buffer non-zero, at every length from 0 to 40 and every
    /// start within a word (the check reads eight bytes at a time, then the tail).
    @Test func isZeroSeesEveryBitAtEveryLengthAndAlignment() {
        var buffer = [UInt8](repeating: 0, count: 48)
        buffer.withUnsafeMutableBytes { raw in
            for start in 0..<8 {
                for length in 0...40 {
                    let window = UnsafeMutableRawBufferPointer(rebasing: raw[start..<start + length])
                    #expect(ConstantTime.isZero(UnsafeRawBufferPointer(window)), "start \(start) length \(length)")
                    for index in 0..<length {
                        for bit in 0..<8 {
                            window[index] = 1 << bit
                            #expect(!ConstantTime.isZero(UnsafeRawBufferPointer(window)), "start \(start) length \(length) byte \(index) bit \(bit)")
                            window[index] = 0
                        }
                    }
                }
            }
        }
        #expect(ConstantTime.isZero(UnsafeRawBufferPointer(start: nil, count: 0)))
    }
}
