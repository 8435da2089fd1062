import Testing
@testable import AccountHandoff

/// HKDF-SHA256 against Wycheproof's `hkdf_sha256_test.json` (86 cases: 83 valid, 23 of them
/// with an empty salt; 3 invalid asking for more than 255 x 32 bytes).
@Suite struct WycheproofHKDFTests {
    private struct Case: Decodable {
        let tcId: Int
        let ikm: HexBytes
        let salt: HexBytes
        let info: HexBytes
        let size: Int
        let okm: HexBytes
        let result: WycheproofResult
    }

    @Test
    func validCasesMatchAndOversizedOutputThrowsKeyDerivationFailed() throws {
        let file = try ThirdPartyVectors.load("hkdf_sha256_test.json", as: WycheproofFile<Case>.self)
        var valid = 0
        var validWithEmptySalt = 0
        var invalidTooLarge = 0
        for vector in file.cases {
            let prk = try HKDF.extract(salt: vector.salt.bytes, inputKeyMaterial: [try SecretBytes(copying: vector.ikm.bytes)])
            switch vector.result {
            case .valid, .acceptable:
                let okm = try HKDF.expand(pseudorandomKey: prk, info: vector.info.bytes, length: vector.size)
                #expect(okm.revealedBytes() == vector.okm.bytes, "tcId \(vector.tcId)")
                valid += 1
                if vector.salt.bytes.isEmpty { validWithEmptySalt += 1 }
            case .invalid:
                #expect(vector.size > HKDF.maximumOutputLength, "tcId \(vector.tcId)")
                #expect(throws: HandoffError.keyDerivationFailed, "tcId \(vector.tcId)") {
                    _ = try HKDF.expand(pseudorandomKey: prk, info: vector.info.bytes, length: vector.size)
                }
                invalidTooLarge += 1
            }
        }
        #expect(file.numberOfTests == 86)
        #expect(valid == 83)
        #expect(validWithEmptySalt == 23)
        #expect(invalidTooLarge == 3)
    }
}
