import Testing
@testable import AccountHandoff

/// ChaCha20-Poly1305 against Wycheproof's `chacha20_poly1305_test.json` (325 cases: 256 valid,
/// 60 invalid with a modified tag, 9 invalid with a nonce that is not 96 bits).
///
/// Wycheproof's `xchacha20_poly1305_test.json` is deliberately not used: AccountHandoff has no
/// XChaCha20-Poly1305 (24-byte nonce) implementation to test.
@Suite struct WycheproofChaCha20Poly1305Tests {
    private struct Case: Decodable {
        let tcId: Int
        let flags: [String]
        let key: HexBytes
        let iv: HexBytes
        let aad: HexBytes
        let msg: HexBytes
        let ct: HexBytes
        let tag: HexBytes
        let result: WycheproofResult
    }

    @Test
    func validCasesSealAndOpenAndInvalidCasesThrowAuthenticationFailed() throws {
        let file = try ThirdPartyVectors.load("chacha20_poly1305_test.json", as: WycheproofFile<Case>.self)
        var valid = 0
        var invalidModifiedTag = 0
        var invalidNonceSize = 0
        for vector in file.cases {
            let key = try SecretBytes(copying: vector.key.bytes)
            let sealed = vector.ct.bytes + vector.tag.bytes
            switch vector.result {
            case .valid:
                let produced = ChaCha20Poly1305.seal(key: key, nonce: vector.iv.bytes,
                                                     plaintext: try SecretBytes(copying: vector.msg.bytes),
                                                     additionalData: vector.aad.bytes)
                #expect(produced == sealed, "tcId \(vector.tcId)")
                let opened = try ChaCha20Poly1305.open(key: key, nonce: vector.iv.bytes, sealed: sealed,
                                                       additionalData: vector.aad.bytes)
                #expect(opened.revealedBytes() == vector.msg.bytes, "tcId \(vector.tcId)")
                valid += 1
            case .invalid, .acceptable:
                // `open` is the entry point for untrusted input: it must refuse, not trap.
                #expect(throws: HandoffError.authenticationFailed, "tcId \(vector.tcId) \(vector.flags)") {
                    _ = try ChaCha20Poly1305.open(key: key, nonce: vector.iv.bytes, sealed: sealed,
                                                  additionalData: vector.aad.bytes)
                }
                if vector.iv.bytes.count == ChaCha20Poly1305.nonceByteCount {
                    // `seal` only takes 12-byte nonces (it traps otherwise, by contract); with
                    // one, it must produce a different tag from the modified one.
                    let produced = ChaCha20Poly1305.seal(key: key, nonce: vector.iv.bytes,
                                                         plaintext: try SecretBytes(copying: vector.msg.bytes),
                                                         additionalData: vector.aad.bytes)
                    #expect(produced.dropLast(16).elementsEqual(vector.ct.bytes), "tcId \(vector.tcId)")
                    #expect(!produced.suffix(16).elementsEqual(vector.tag.bytes), "tcId \(vector.tcId)")
                    invalidModifiedTag += 1
                } else {
                    invalidNonceSize += 1
                }
            }
        }
        #expect(file.numberOfTests == 325)
        #expect(valid == 256)
        #expect(invalidModifiedTag == 60)
        #expect(invalidNonceSize == 9)
    }
}
