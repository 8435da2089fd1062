import AccountHandoff
import AccountHandoffTestSupport
import Testing

/// Replays `Vectors/primitives.json` against the Swift crypto layer.
@Suite struct PrimitiveVectorTests {
    let vectors: [String: Any]

    init() throws { vectors = try VectorFiles.load("primitives.json") }

    @Test func sha256() throws {
        let cases = try vectors.objects("sha256")
        #expect(cases.count >= 6)
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
        #expect(cases.count >= 10)
        #expect(cases.contains { (try? $0.int("length")) == 8160 && $0["okm"] != nil })
        #expect(cases.contains { (try? $0.int("length")) == 8161 && ($0["error"] as? String) == "keyDerivationFailed" })
        for entry in cases {
            let prk = VectorPrimitives.hkdfExtract(salt: try entry.bytes("salt"), inputKeyMaterial: [try entry.bytes("ikm")])
            #expect(try prk == entry.bytes("prk"), "\(entry.name)")
            let length = Int(try entry.int("length")), info = try entry.bytes("info")
            if let error = entry["error"] as? String {
                #expect(identifier { _ = try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: info, length: length) } == error, "\(entry.name)")
            } else {
                let okm = try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: info, length: length)
                #expect(try okm == entry.bytes("okm") && okm.count == length, "\(entry.name)")
            }
        }
    }

    @Test func x25519() throws {
        let cases = try vectors.objects("x25519")
        #expect(cases.filter { $0["error"] != nil }.count == 14)
        for entry in cases {
            let privateKey = try entry.bytes("privateKey"), peer = try entry.bytes("peerPublicKey")
            if let error = entry["error"] as? String {
                #expect(identifier { _ = try VectorPrimitives.x25519(privateKey: privateKey, peer: peer) } == error, "\(entry.name)")
            } else {
                #expect(try VectorPrimitives.x25519(privateKey: privateKey, peer: peer) == entry.bytes("sharedSecret"), "\(entry.name)")
            }
        }
    }

    @Test func chaCha20Poly1305() throws {
        let cases = try vectors.objects("chacha20Poly1305")
        #expect(cases.count >= 10)
        for entry in cases {
            let key = try entry.bytes("key"), nonce = try entry.bytes("nonce"), ad = try entry.bytes("additionalData")
            let sealed = try entry.bytes("sealed")
            if let error = entry["error"] as? String {
                #expect(identifier { _ = try VectorPrimitives.open(key: key, nonce: nonce, sealed: sealed, additionalData: ad) } == error)
            } else {
                let plaintext = try entry.bytes("plaintext")
                #expect(try VectorPrimitives.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: ad) == sealed, "\(entry.name)")
                #expect(try VectorPrimitives.open(key: key, nonce: nonce, sealed: sealed, additionalData: ad) == plaintext, "\(entry.name)")
            }
        }
    }
}
