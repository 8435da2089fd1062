import Testing
@testable import AccountHandoff
import AccountHandoffTestSupport

/// Spec 4.4: the six-digit code from 64 bytes of code material, its forms and comparison.
@Suite struct ShortCodeTests {
    static func code(_ material: [UInt8]) -> ShortCode? { VectorPrimitives.shortCode(material: material) }

    @Test func formsForPeopleAndScreenReaders() throws {
        // Candidate 0x0001E240 = 123456.
        let code = try #require(Self.code([0x00, 0x01, 0xe2, 0x40] + Array(repeating: 0, count: 60)))
        #expect(code.value == 123_456)
        #expect(code.digits == "123456")
        #expect(code.grouped == "123 456")
        #expect(code.description == "123 456")
        #expect(code.spoken == "one two three, four five six")
        #expect(ShortCodeFormatter.english.visibleText(for: code) == "123 456")
        let german = ShortCodeFormatter(digitWords: ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"])
        #expect(german.accessibilityLabel(for: code) == "eins zwei drei, vier fünf sechs")
    }

    @Test func leadingZerosAreKept() throws {
        let code = try #require(Self.code([0, 0, 0, 7] + Array(repeating: 0, count: 60)))
        #expect(code.digits == "000007")
        #expect(code.grouped == "000 007")
        #expect(code.spoken == "zero zero zero, zero zero seven")
    }

    @Test func candidatesAtOrAboveTheBoundAreRejected() throws {
        // 4_294_000_000 = 0xFFF1_3D80 is rejected; the third candidate 0xFFF1_3D7F = 4_293_999_999 is used.
        let material: [UInt8] = [0xff, 0xf1, 0x3d, 0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf1, 0x3d, 0x7f] + Array(repeating: 0, count: 52)
        #expect(VectorPrimitives.acceptedCandidateIndex(material: material) == 2)
        #expect(Self.code(material)?.value == 999_999)
        #expect(VectorPrimitives.shortCodeRejectionBound == 4_294_000_000)
    }

    @Test func onlyTheLastCandidateAcceptedStillGivesACode() throws {
        let material = [UInt8](repeating: 0xff, count: 60) + [0, 0, 0, 42]
        #expect(VectorPrimitives.acceptedCandidateIndex(material: material) == 15)
        #expect(Self.code(material)?.value == 42)
    }

    @Test func allCandidatesRejectedGivesNoCode() {
        #expect(Self.code(Array(repeating: 0xff, count: 64)) == nil)
        #expect(VectorPrimitives.acceptedCandidateIndex(material: Array(repeating: 0xff, count: 64)) == nil)
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
        #expect(!code.matches(typed: "123\u{A0}456"))
    }

    @Test func theMappingIsUnbiasedOverTheAcceptedRange() {
        // 4_294_000_000 is an exact multiple of 10^6, so every code has 4294 preimages.
        #expect(ShortCode.rejectionBound % 1_000_000 == 0)
        #expect(UInt64(ShortCode.rejectionBound) + 1_000_000 > UInt64(UInt32.max))
    }

    /// Both sides derive the same code from the same inputs, and a different nonce gives another.
    @Test func theCodeDependsOnTheNonce() throws {
        let arena = try SessionArena(byteCount: 512)
        func secret(_ byte: UInt8) -> SessionSecret { [UInt8](repeating: byte, count: 32).withUnsafeBytes { arena.keep(copying: $0) } }
        let codeKey = secret(1)
        let transcript = try #require(SHA256.Digest(bytes: [UInt8](repeating: 2, count: 32)))
        let first = try ShortCode.derive(codeKey: codeKey, nonce: secret(3), handshakeTranscript: transcript, arena: arena)
        let again = try ShortCode.derive(codeKey: codeKey, nonce: secret(3), handshakeTranscript: transcript, arena: arena)
        let other = try ShortCode.derive(codeKey: codeKey, nonce: secret(4), handshakeTranscript: transcript, arena: arena)
        #expect(first == again)
        #expect(first != other)
    }
}
