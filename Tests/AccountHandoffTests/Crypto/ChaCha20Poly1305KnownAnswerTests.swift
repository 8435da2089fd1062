import Testing
@testable import AccountHandoff

/// ChaCha20-Poly1305 against RFC 8439 section 2.8.2, and every way a sealed message can be
/// tampered with.
@Suite struct ChaCha20Poly1305KnownAnswerTests {
    /// RFC 8439 section 2.8.2 inputs and outputs.
    private enum RFC8439 {
        static let key = "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
        static let nonce = "070000004041424344454647"
        static let additionalData = "50515253c0c1c2c3c4c5c6c7"
        static let plaintext = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
        static let ciphertext = "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
            + "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
            + "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
            + "3ff4def08e4b7a9de576d26586cec64b6116"
        static let tag = "1ae10b594f09e26a7e902ecbd0600691"
    }

    private struct Sealed {
        let key: SecretBytes
        let nonce: [UInt8]
        let additionalData: [UInt8]
        let sealed: [UInt8]
    }

    private func rfcSealed() throws -> Sealed {
        let key = try SecretBytes(hex: RFC8439.key)
        let nonce = try [UInt8](hex: RFC8439.nonce)
        let additionalData = try [UInt8](hex: RFC8439.additionalData)
        let sealed = ChaCha20Poly1305.seal(key: key, nonce: nonce, plaintext: try SecretBytes(utf8: RFC8439.plaintext),
                                           additionalData: additionalData)
        return Sealed(key: key, nonce: nonce, additionalData: additionalData, sealed: sealed)
    }

    private func expectAuthenticationFailure(_ input: Sealed, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: HandoffError.authenticationFailed, sourceLocation: sourceLocation) {
            _ = try ChaCha20Poly1305.open(key: input.key, nonce: input.nonce, sealed: input.sealed,
                                          additionalData: input.additionalData)
        }
    }

    @Test func rfc8439Section2_8_2CiphertextAndTagMatch() throws {
        let sealed = try rfcSealed().sealed
        #expect(sealed.count == RFC8439.plaintext.utf8.count + 16)
        #expect(Hex.encode(sealed.dropLast(16)) == RFC8439.ciphertext)
        #expect(Hex.encode(sealed.suffix(16)) == RFC8439.tag)
    }

    @Test func rfc8439Section2_8_2OpensToThePlaintext() throws {
        let input = try rfcSealed()
        let opened = try ChaCha20Poly1305.open(key: input.key, nonce: input.nonce,
                                               sealed: try [UInt8](hex: RFC8439.ciphertext + RFC8439.tag),
                                               additionalData: input.additionalData)
        #expect(opened.revealedBytes() == Array(RFC8439.plaintext.utf8))
    }

    @Test func emptyPlaintextSealsToATagAloneAndOpensToEmpty() throws {
        let input = try rfcSealed()
        let sealed = ChaCha20Poly1305.seal(key: input.key, nonce: input.nonce, plaintext: try SecretBytes(copying: []),
                                           additionalData: [])
        #expect(sealed.count == 16)
        let opened = try ChaCha20Poly1305.open(key: input.key, nonce: input.nonce, sealed: sealed, additionalData: [])
        #expect(opened.count == 0)
    }

    @Test func everyFlippedTagBitThrowsAuthenticationFailed() throws {
        let input = try rfcSealed()
        for bit in 0..<(16 * 8) {
            var sealed = input.sealed
            sealed[sealed.count - 16 + bit / 8] ^= 1 << (bit % 8)
            expectAuthenticationFailure(Sealed(key: input.key, nonce: input.nonce,
                                               additionalData: input.additionalData, sealed: sealed))
        }
    }

    @Test func modifiedCiphertextThrowsAuthenticationFailed() throws {
        let input = try rfcSealed()
        for index in [0, 57, input.sealed.count - 17] {
            var sealed = input.sealed
            sealed[index] ^= 0x01
            expectAuthenticationFailure(Sealed(key: input.key, nonce: input.nonce,
                                               additionalData: input.additionalData, sealed: sealed))
        }
    }

    @Test func modifiedAdditionalDataThrowsAuthenticationFailed() throws {
        let input = try rfcSealed()
        var flipped = input.additionalData
        flipped[0] ^= 0x80
        for additionalData in [flipped, Array(input.additionalData.dropLast()), input.additionalData + [0], []] {
            expectAuthenticationFailure(Sealed(key: input.key, nonce: input.nonce,
                                               additionalData: additionalData, sealed: input.sealed))
        }
    }

    @Test func modifiedNonceThrowsAuthenticationFailed() throws {
        let input = try rfcSealed()
        for index in [0, 4, 11] {
            var nonce = input.nonce
            nonce[index] ^= 0x01
            expectAuthenticationFailure(Sealed(key: input.key, nonce: nonce,
                                               additionalData: input.additionalData, sealed: input.sealed))
        }
    }

    @Test func wrongKeyThrowsAuthenticationFailed() throws {
        let input = try rfcSealed()
        var keyBytes = try [UInt8](hex: RFC8439.key)
        keyBytes[31] ^= 0x01
        expectAuthenticationFailure(Sealed(key: try SecretBytes(copying: keyBytes), nonce: input.nonce,
                                           additionalData: input.additionalData, sealed: input.sealed))
    }

    /// Sizes the library must refuse without trapping: nonce, key and sealed input.
    @Test func wrongSizesThrowAuthenticationFailedInsteadOfCrashing() throws {
        let input = try rfcSealed()
        for nonceCount in [0, 8, 11, 13, 24] {
            expectAuthenticationFailure(Sealed(key: input.key, nonce: [UInt8](repeating: 7, count: nonceCount),
                                               additionalData: input.additionalData, sealed: input.sealed))
        }
        for keyCount in [0, 16, 31, 33] {
            expectAuthenticationFailure(Sealed(key: try SecretBytes(copying: [UInt8](repeating: 0x80, count: keyCount)),
                                               nonce: input.nonce, additionalData: input.additionalData,
                                               sealed: input.sealed))
        }
        for sealedCount in [0, 1, 15] {
            expectAuthenticationFailure(Sealed(key: input.key, nonce: input.nonce, additionalData: input.additionalData,
                                               sealed: Array(input.sealed.prefix(sealedCount))))
        }
    }

    @Test func truncatedOrExtendedSealedMessageThrowsAuthenticationFailed() throws {
        let input = try rfcSealed()
        for sealed in [Array(input.sealed.dropLast()), Array(input.sealed.dropFirst()), input.sealed + [0]] {
            expectAuthenticationFailure(Sealed(key: input.key, nonce: input.nonce,
                                               additionalData: input.additionalData, sealed: sealed))
        }
    }
}
