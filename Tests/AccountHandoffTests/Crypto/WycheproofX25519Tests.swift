import Testing
@testable import AccountHandoff

/// X25519 against Wycheproof's `x25519_test.json` (518 cases: 264 valid, 254 acceptable).
/// Every case must give Wycheproof's shared secret, except the 31 whose shared secret is
/// all zeros: our protocol must refuse those with `lowOrderPublicKey`.
@Suite struct WycheproofX25519Tests {
    private struct Case: Decodable {
        let tcId: Int
        let flags: [String]
        let `public`: HexBytes
        let `private`: HexBytes
        let shared: HexBytes
        let result: WycheproofResult
    }

    @Test
    func everyCaseMatchesOrIsRejectedAsLowOrder() throws {
        let file = try ThirdPartyVectors.load("x25519_test.json", as: WycheproofFile<Case>.self)
        var matchedValid = 0
        var matchedAcceptable = 0
        var rejectedAllZero = 0
        for vector in file.cases {
            let peer = try #require(X25519PublicKey(bytes: vector.public.bytes), "tcId \(vector.tcId)")
            let privateKey = try SecretBytes(copying: vector.private.bytes)
            if vector.shared.bytes.allSatisfy({ $0 == 0 }) {
                #expect(throws: HandoffError.lowOrderPublicKey, "tcId \(vector.tcId)") {
                    _ = try X25519.sharedSecret(privateKey: privateKey, peer: peer)
                }
                rejectedAllZero += 1
                continue
            }
            let shared = try X25519.sharedSecret(privateKey: privateKey, peer: peer)
            #expect(shared.revealedBytes() == vector.shared.bytes, "tcId \(vector.tcId) \(vector.flags)")
            switch vector.result {
            case .valid: matchedValid += 1
            case .acceptable: matchedAcceptable += 1
            case .invalid: Issue.record("tcId \(vector.tcId): this file has no invalid X25519 cases")
            }
        }
        #expect(file.numberOfTests == 518)
        #expect(file.cases.count == 518)
        #expect(matchedValid == 264)
        #expect(matchedAcceptable == 254 - 31)
        #expect(rejectedAllZero == 31)
    }
}
