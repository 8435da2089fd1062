import Testing
@testable import AccountHandoff

@Suite struct ShortCodeTests {
    static func code(_ material: [UInt8]) -> ShortCode? {
        material.withUnsafeBytes { ShortCode(material: $0) }
    }

    @Test func formsForPeopleAndScreenReaders() throws {
        // Candidate 0x0001E240 = 123456.
        let code = try #require(Self.code([0x00, 0x01, 0xe2, 0x40] + Array(repeating: 0, count: 60)))
        #expect(code.digits == "123456")
        #expect(code.grouped == "123 456")
        #expect(code.description == "123 456")
        #expect(code.spoken == "one two three, four five six")
    }

    @Test func leadingZerosAreKept() throws {
        let code = try #require(Self.code([0, 0, 0, 7] + Array(repeating: 0, count: 60)))
        #expect(code.digits == "000007")
        #expect(code.grouped == "000 007")
    }

    @Test func candidatesAtOrAboveTheBoundAreRejected() throws {
        // 4_294_000_000 = 0xFFF1_3D80 is rejected; the third candidate 0xFFF1_3D7F = 4_293_999_999 is used.
        let material: [UInt8] = [0xff, 0xf1, 0x3d, 0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf1, 0x3d, 0x7f] + Array(repeating: 0, count: 52)
        #expect(material.withUnsafeBytes { ShortCode.acceptedCandidateIndex($0) } == 2)
        #expect(Self.code(material)?.value == 999_999)
    }

    @Test func allCandidatesRejectedGivesNoCode() {
        #expect(Self.code(Array(repeating: 0xff, count: 64)) == nil)
    }

    @Test func typedCodeComparison() throws {
        let code = try #require(Self.code([0x00, 0x01, 0xe2, 0x40] + Array(repeating: 0, count: 60)))
        #expect(code.matches(typed: "123456"))
        #expect(code.matches(typed: "123 456"))
        #expect(!code.matches(typed: "123457"))
        #expect(!code.matches(typed: "12345"))
        #expect(!code.matches(typed: "1234567"))
        #expect(!code.matches(typed: ""))
        #expect(!code.matches(typed: "１２３４５６"))  // full-width digits are not the code
    }

    @Test func mappingIsUnbiasedOverTheAcceptedRange() {
        // 4_294_000_000 is an exact multiple of 10^6, so every code has 4294 preimages.
        #expect(ShortCode.rejectionBound % 1_000_000 == 0)
        #expect(UInt64(ShortCode.rejectionBound) + 1_000_000 > UInt64(UInt32.max))
    }
}
