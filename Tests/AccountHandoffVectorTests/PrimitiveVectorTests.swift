@_spi(Vectors) import AccountHandoff
import Testing

/// Replays `Vectors/primitives.json` against the Swift crypto layer.
@Suite struct PrimitiveVectorTests {
    let vectors: [String: Any]

    init() throws { vectors = try VectorFiles.load("primitives.json") }

    @Test func sha256() throws {
        let cases = try vectors.objects("sha256")
        #expect(cases.count >= 4)
        for entry in cases {
            #expect(try VectorPrimitives.sha256([try entry.bytes("message")]) == entry.bytes("digest"), "\(entry.name)")
        }
    }

    @Test func hmacSHA256() throws {
        for entry in try vectors.objects("hmacSha256") {
            #expect(try VectorPrimitives.hmac(key: try entry.bytes("key"), message: try entry.bytes("message")) == entry.bytes("tag"))
        }
    }

    @Test func hkdfSHA256() throws {
        let cases = try vectors.objects("hkdfSha256")
        #expect(cases.count >= 7)
        for entry in cases {
            let prk = VectorPrimitives.hkdfExtract(salt: try entry.bytes("salt"), inputKeyMaterial: [try entry.bytes("ikm")])
            #expect(try prk == entry.bytes("prk"), "\(entry.name)")
            let okm = try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: try entry.bytes("info"), length: Int(try entry.int("length")))
            #expect(try okm == entry.bytes("okm"), "\(entry.name)")
        }
    }

    @Test func x25519() throws {
        let cases = try vectors.objects("x25519")
        #expect(cases.filter { $0["error"] != nil }.count == 14)
        for entry in cases {
            let name = try entry.string("name")
            if let error = entry["error"] as? String {
                #expect(error == "lowOrderPublicKey")
                #expect(throws: HandoffError.lowOrderPublicKey, "\(name)") {
                    try VectorPrimitives.x25519(privateKey: try entry.bytes("privateKey"), peer: try entry.bytes("peerPublicKey"))
                }
            } else {
                let shared = try VectorPrimitives.x25519(privateKey: try entry.bytes("privateKey"), peer: try entry.bytes("peerPublicKey"))
                #expect(try shared == entry.bytes("sharedSecret"), "\(name)")
            }
        }
    }

    @Test func chaCha20Poly1305() throws {
        let cases = try vectors.objects("chacha20Poly1305")
        #expect(cases.count >= 9)
        for entry in cases {
            let key = try entry.bytes("key"), nonce = try entry.bytes("nonce"), ad = try entry.bytes("additionalData")
            let sealed = try entry.bytes("sealed")
            if entry["error"] != nil {
                #expect(throws: HandoffError.authenticationFailed) {
                    try VectorPrimitives.open(key: key, nonce: nonce, sealed: sealed, additionalData: ad)
                }
            } else {
                let plaintext = try entry.bytes("plaintext")
                #expect(VectorPrimitives.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: ad) == sealed)
                #expect(try VectorPrimitives.open(key: key, nonce: nonce, sealed: sealed, additionalData: ad) == plaintext)
            }
        }
    }
}
