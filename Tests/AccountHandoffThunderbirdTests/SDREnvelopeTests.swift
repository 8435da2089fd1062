@testable import AccountHandoffThunderbird
import Foundation
import Testing

/// The SDR envelope of Thunderbird's logins is read strictly and written the way NSS writes it.
@Suite struct SDREnvelopeTests {
    /// An encrypted password as Thunderbird 153 (its NSS: AES-256-CBC) wrote it.
    static let written = "MFMEEPgAAAAAAAAAAAAAAAAAAAEwHQYJYIZIAWUDBAEqBBA+fq2Ko3pudlu5v/KD1XFjBCDBZkBy9v+0MtawEC6grUjtd2iwc6eOgM5R9nzCqeAdvw=="

    @Test func thunderbirdsEnvelopeDecodesAndEncodesToTheSameBytes() throws {
        let bytes = Array(try #require(Data(base64Encoded: Self.written)))
        let envelope = try SDREnvelope(der: bytes)
        #expect(envelope.keyID == SDREnvelope.defaultKeyID)
        #expect(envelope.algorithm == .aes256CBC)
        #expect(envelope.iv.count == 16)
        #expect(envelope.ciphertext.count == 32)
        #expect(envelope.der == bytes)
    }

    @Test func tripleDESEnvelopesOfOlderProfilesDecode() throws {
        let envelope = SDREnvelope(keyID: SDREnvelope.defaultKeyID, algorithm: .desEDE3CBC, iv: Array(repeating: 7, count: 8),
                                   ciphertext: Array(repeating: 9, count: 16))
        #expect(try SDREnvelope(der: envelope.der) == envelope)
    }

    @Test func longCiphertextsUseTheLongLengthForm() throws {
        let envelope = SDREnvelope(keyID: SDREnvelope.defaultKeyID, algorithm: .aes256CBC, iv: Array(repeating: 1, count: 16),
                                   ciphertext: Array(repeating: 2, count: 1040))
        let der = envelope.der
        #expect(Array(der.prefix(4)) == [0x30, 0x82, 0x04, 0x45], "18 + 31 + 1044 bytes of contents")
        #expect(try SDREnvelope(der: der) == envelope)
    }

    @Test(arguments: SDREnvelopeTests.damaged())
    func refusesAnythingElse(bytes: [UInt8]) {
        #expect(throws: SDREnvelope.Malformed.self) { try SDREnvelope(der: bytes) }
    }

    static func damaged() -> [[UInt8]] {
        let good = Array(Data(base64Encoded: written)!)
        var longForm = good
        longForm.replaceSubrange(1..<2, with: [0x81, 0x53])  // 0x53 < 128 in the long form
        var otherCipher = good
        otherCipher[28] = 0x2B  // ...aes256-CBC's last OID byte changed
        var shortIV = good
        shortIV[30] = 0x0F
        return [
            good + [0],  // trailing byte
            Array(good.dropLast()),  // cut
            longForm,  // a length not minimally encoded
            otherCipher,
            shortIV,  // the IV is not the block size
            [0x30, 0x00],  // empty
            [],
        ]
    }
}
