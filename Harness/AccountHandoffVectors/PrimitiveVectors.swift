import AccountHandoff
import AccountHandoffTestSupport

/// `primitives.json`: SHA-256, HMAC-SHA256, HKDF-SHA256, X25519 and ChaCha20-Poly1305 as the
/// protocol uses them, with the RFC known answers and seeded protocol-shaped cases.
enum PrimitiveVectors {
    static func make() throws -> JSONValue {
        .object([
            "description": .string("Primitive vectors: RFC known answers (checked against the RFC text by the generator) and protocol-shaped cases. Hex is lowercase."),
            "sha256": .array(try sha256()),
            "hmacSha256": .array(try hmac()),
            "hkdfSha256": .array(try hkdf()),
            "x25519": .array(try x25519()),
            "chacha20Poly1305": .array(try aead()),
        ])
    }

    private static func check(_ actual: [UInt8], _ expectedHex: String, _ what: String) throws {
        guard Hex.encode(actual) == expectedHex else { throw VectorGenerationError("\(what): computed \(Hex.encode(actual)), RFC says \(expectedHex)") }
    }

    // MARK: SHA-256

    private static func sha256() throws -> [JSONValue] {
        let known: [(String, [UInt8], String)] = [
            ("FIPS 180-2 empty message", [], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("FIPS 180-2 abc", VectorSupport.ascii("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("FIPS 180-2 two blocks", VectorSupport.ascii("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ]
        var out: [JSONValue] = []
        for (name, message, digest) in known {
            try check(VectorPrimitives.sha256([message]), digest, name)
            out.append(.object(["name": .string(name), "source": .string("FIPS 180-2 / RFC 6234"),
                                "message": .hex(message), "digest": .string(digest)]))
        }
        // Protocol shapes: the three labelled hashes of a 79-byte QR (8-byte rendezvous) and a nonce.
        let qr = VectorSupport.bytes(seed: VectorSupport.seed("sha256/qr"), count: 79)
        let nonce = VectorSupport.bytes(seed: VectorSupport.seed("sha256/nonce"), count: 32)
        for (name, label, body) in [("protocol TH0 shape: \"AH4 transcript\" | 79-byte QR", "AH4 transcript", qr),
                                    ("protocol transfer ID shape: \"AH4 transfer ID\" | 79-byte QR (first 16 bytes are the ID)", "AH4 transfer ID", qr),
                                    ("protocol commitment shape: \"AH4 commitment\" | 32-byte nonce", "AH4 commitment", nonce)] {
            let message = VectorSupport.ascii(label) + body
            out.append(.object(["name": .string(name), "source": .string("protocol"),
                                "message": .hex(message), "digest": .hex(VectorPrimitives.sha256([message]))]))
        }
        guard VectorPrimitives.commitment(nonce: nonce) == VectorPrimitives.sha256([VectorSupport.ascii("AH4 commitment"), nonce]) else {
            throw VectorGenerationError("commitment differs from SHA-256(\"AH4 commitment\" | nonce)")
        }
        return out
    }

    // MARK: HMAC

    private static func hmac() throws -> [JSONValue] {
        let key = VectorSupport.ascii("Jefe")
        let message = VectorSupport.ascii("what do ya want for nothing?")
        let expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        try check(VectorPrimitives.hmac(key: key, message: message), expected, "RFC 4231 case 2")
        let helloKey = VectorSupport.bytes(seed: VectorSupport.seed("hmac/helloKey"), count: 32)
        let hh = VectorSupport.bytes(seed: VectorSupport.seed("hmac/hh"), count: 32)
        return [
            .object(["name": .string("RFC 4231 test case 2"), "source": .string("RFC 4231 section 4.3"),
                     "key": .hex(key), "message": .hex(message), "tag": .string(expected)]),
            .object(["name": .string("protocol hello tag shape: HMAC(helloKey, HH)"), "source": .string("protocol"),
                     "key": .hex(helloKey), "message": .hex(hh), "tag": .hex(VectorPrimitives.hmac(key: helloKey, message: hh))]),
        ]
    }

    // MARK: HKDF

    private static func hkdf() throws -> [JSONValue] {
        let ikm22 = [UInt8](repeating: 0x0b, count: 22)
        let known: [(String, [UInt8], [UInt8], [UInt8], Int, String, String)] = [
            ("RFC 5869 A.1", ikm22, VectorSupport.hex("000102030405060708090a0b0c"), VectorSupport.hex("f0f1f2f3f4f5f6f7f8f9"), 42,
             "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
             "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
            ("RFC 5869 A.2", (0x00...0x4f).map { UInt8($0) }, (0x60...0xaf).map { UInt8($0) }, (0xb0...0xff).map { UInt8($0) }, 82,
             "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
             "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
            ("RFC 5869 A.3", ikm22, [], [], 42,
             "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
             "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
        ]
        var out: [JSONValue] = []
        for (name, ikm, salt, info, length, prkHex, okmHex) in known {
            let prk = VectorPrimitives.hkdfExtract(salt: salt, inputKeyMaterial: [ikm])
            try check(prk, prkHex, name + " PRK")
            try check(try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: info, length: length), okmHex, name + " OKM")
            out.append(.object(["name": .string(name), "source": .string("RFC 5869 appendix A"), "ikm": .hex(ikm), "salt": .hex(salt),
                                "info": .hex(info), "length": .number(length), "prk": .string(prkHex), "okm": .string(okmHex)]))
        }
        // Protocol shapes (Spec 4.2, 4.4): salt = HH, IKM = shared | commitment, every key label;
        // then salt = TH1, IKM = codeKey | nonce, "AH4 code".
        let hh = VectorSupport.bytes(seed: VectorSupport.seed("hkdf/hh"), count: 32)
        let shared = VectorSupport.bytes(seed: VectorSupport.seed("hkdf/shared"), count: 32)
        let commitment = VectorSupport.bytes(seed: VectorSupport.seed("hkdf/commitment"), count: 32)
        let prk = VectorPrimitives.hkdfExtract(salt: hh, inputKeyMaterial: [shared, commitment])
        for label in ["AH4 hello", "AH4 s2r", "AH4 r2s", "AH4 code key"] {
            out.append(try protocolEntry("protocol key label \(label)", ikm: shared + commitment, salt: hh, prk: prk, label: label, length: 32))
        }
        let th1 = VectorSupport.bytes(seed: VectorSupport.seed("hkdf/th1"), count: 32)
        let codeKey = VectorSupport.bytes(seed: VectorSupport.seed("hkdf/codeKey"), count: 32)
        let nonce = VectorSupport.bytes(seed: VectorSupport.seed("hkdf/nonce"), count: 32)
        let codePRK = VectorPrimitives.hkdfExtract(salt: th1, inputKeyMaterial: [codeKey, nonce])
        out.append(try protocolEntry("protocol code material: salt TH1, IKM codeKey | nonce, AH4 code", ikm: codeKey + nonce, salt: th1,
                                     prk: codePRK, label: "AH4 code", length: 64))
        // The output-length limit of RFC 5869: 255 blocks of 32 bytes (Spec 4.2).
        let limitPRK = VectorPrimitives.hkdfExtract(salt: hh, inputKeyMaterial: [shared])
        let info = VectorSupport.ascii("AH4 length limit")
        let longest = try VectorPrimitives.hkdfExpand(pseudorandomKey: limitPRK, info: info, length: 8160)
        guard longest.count == 8160 else { throw VectorGenerationError("HKDF 8160 bytes: got \(longest.count)") }
        out.append(.object(["name": .string("length 8160 = 255 x 32 (the largest output)"), "source": .string("RFC 5869 section 2.3"),
                            "ikm": .hex(shared), "salt": .hex(hh), "info": .hex(info), "length": .number(8160),
                            "prk": .hex(limitPRK), "okm": .hex(longest)]))
        try VectorSupport.expectError(.keyDerivationFailed, "HKDF 8161 bytes") { () throws(HandoffError) in
            _ = try VectorPrimitives.hkdfExpand(pseudorandomKey: limitPRK, info: info, length: 8161)
        }
        out.append(.object(["name": .string("length 8161 = 255 x 32 + 1 (refused)"), "source": .string("RFC 5869 section 2.3"),
                            "ikm": .hex(shared), "salt": .hex(hh), "info": .hex(info), "length": .number(8161),
                            "prk": .hex(limitPRK), "error": .string(HandoffError.keyDerivationFailed.identifier)]))
        return out
    }

    private static func protocolEntry(_ name: String, ikm: [UInt8], salt: [UInt8], prk: [UInt8], label: String,
                                      length: Int) throws -> JSONValue {
        let info = VectorSupport.ascii(label)
        return .object(["name": .string(name), "source": .string("protocol"), "ikm": .hex(ikm), "salt": .hex(salt),
                        "info": .hex(info), "length": .number(length), "prk": .hex(prk),
                        "okm": .hex(try VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: info, length: length))])
    }

    // MARK: X25519

    /// Small-order u-coordinates (RFC 7748 section 6.1 and the usual blacklist), each also with the
    /// top bit set, which X25519 masks.
    static let lowOrderPoints: [(String, String)] = [
        ("0 (order 2)", "0000000000000000000000000000000000000000000000000000000000000000"),
        ("1 (order 4)", "0100000000000000000000000000000000000000000000000000000000000000"),
        ("order 8 point a", "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
        ("order 8 point b", "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
        ("p - 1 (order 4 on the twist)", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
        ("p (non-canonical encoding of 0)", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
        ("p + 1 (non-canonical encoding of 1)", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    ]

    private static func x25519() throws -> [JSONValue] {
        var out: [JSONValue] = []
        let known: [(String, String, String, String, String)] = [
            ("RFC 7748 5.2 vector 1", "RFC 7748 section 5.2",
             "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
             "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
             "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
            ("RFC 7748 6.1 Alice public key", "RFC 7748 section 6.1",
             "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
             "0900000000000000000000000000000000000000000000000000000000000000",
             "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"),
            ("RFC 7748 6.1 Bob public key", "RFC 7748 section 6.1",
             "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
             "0900000000000000000000000000000000000000000000000000000000000000",
             "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"),
            ("RFC 7748 6.1 shared secret (Alice side)", "RFC 7748 section 6.1",
             "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
             "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
             "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"),
            ("RFC 7748 6.1 shared secret (Bob side)", "RFC 7748 section 6.1",
             "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
             "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
             "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"),
        ]
        for (name, source, scalar, u, output) in known {
            try check(try VectorPrimitives.x25519(privateKey: VectorSupport.hex(scalar), peer: VectorSupport.hex(u)), output, name)
            out.append(.object(["name": .string(name), "source": .string(source), "privateKey": .string(scalar),
                                "peerPublicKey": .string(u), "sharedSecret": .string(output)]))
        }
        // Protocol shape: seeded ephemeral keys as the sender and receiver draw them.
        let senderPrivate = VectorSupport.bytes(seed: VectorSupport.seed("x25519/sender"), count: 32)
        let receiverPrivate = VectorSupport.bytes(seed: VectorSupport.seed("x25519/receiver"), count: 32)
        let receiverPublic = try VectorPrimitives.x25519PublicKey(privateKey: receiverPrivate)
        out.append(.object(["name": .string("protocol: public key of a seeded private key"), "source": .string("protocol"),
                            "privateKey": .hex(receiverPrivate), "peerPublicKey": .string("09" + String(repeating: "0", count: 62)),
                            "sharedSecret": .hex(receiverPublic)]))
        out.append(.object(["name": .string("protocol: seeded sender x receiver"), "source": .string("protocol"),
                            "privateKey": .hex(senderPrivate), "peerPublicKey": .hex(receiverPublic),
                            "sharedSecret": .hex(try VectorPrimitives.x25519(privateKey: senderPrivate, peer: receiverPublic))]))
        for (name, point) in lowOrderPoints {
            for topBit in [false, true] {
                var peer = VectorSupport.hex(point)
                if topBit { peer[31] |= 0x80 }
                try VectorSupport.expectError(.lowOrderPublicKey, "low-order point \(name)") { () throws(HandoffError) in
                    _ = try VectorPrimitives.x25519(privateKey: senderPrivate, peer: peer)
                }
                out.append(.object(["name": .string("low-order peer key: \(name)\(topBit ? ", top bit set" : "")"),
                                    "source": .string("RFC 7748 section 6.1"), "privateKey": .hex(senderPrivate),
                                    "peerPublicKey": .hex(peer), "error": .string(HandoffError.lowOrderPublicKey.identifier)]))
            }
        }
        return out
    }

    // MARK: ChaCha20-Poly1305

    private static func aead() throws -> [JSONValue] {
        let key = (0x80...0x9f).map { UInt8($0) }
        let nonce = VectorSupport.hex("070000004041424344454647")
        let ad = VectorSupport.hex("50515253c0c1c2c3c4c5c6c7")
        let plaintext = VectorSupport.ascii("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
        let sealed = "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116"
            + "1ae10b594f09e26a7e902ecbd0600691"
        try check(try VectorPrimitives.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: ad), sealed, "RFC 8439 2.8.2")
        var out: [JSONValue] = [
            .object(["name": .string("RFC 8439 2.8.2 AEAD"), "source": .string("RFC 8439 section 2.8.2"), "key": .hex(key),
                     "nonce": .hex(nonce), "additionalData": .hex(ad), "plaintext": .hex(plaintext), "sealed": .string(sealed)]),
        ]
        // Protocol shape: counter nonce, empty, one-byte and 32-byte plaintexts, 76-byte AD
        // (header 24 | expiry 4 | TH 32 | link ID 16; the same AD for every case here).
        let protocolKey = VectorSupport.bytes(seed: VectorSupport.seed("aead/key"), count: 32)
        let protocolAD = VectorSupport.bytes(seed: VectorSupport.seed("aead/ad"), count: 76)
        for (name, sequence, message) in [("protocol: empty plaintext (accept), sequence 1", UInt32(1), [UInt8]()),
                                          ("protocol: one byte (receipt), sequence 2", 2, [1]),
                                          ("protocol: 32 bytes (reveal), sequence 0", 0,
                                           VectorSupport.bytes(seed: VectorSupport.seed("aead/reveal"), count: 32)),
                                          ("protocol: 256 bytes (offer), sequence 1", 1,
                                           VectorSupport.bytes(seed: VectorSupport.seed("aead/offer"), count: 256))] {
            let protocolNonce = VectorPrimitives.nonce(sequence: sequence)
            out.append(.object(["name": .string(name), "source": .string("protocol"), "key": .hex(protocolKey), "nonce": .hex(protocolNonce),
                                "additionalData": .hex(protocolAD), "plaintext": .hex(message),
                                "sealed": .hex(try VectorPrimitives.seal(key: protocolKey, nonce: protocolNonce, plaintext: message, additionalData: protocolAD))]))
        }
        // Rejections: tag, ciphertext, AD and nonce changes must all fail to open.
        let goodSealed = VectorSupport.hex(sealed)
        let cases: [(String, [UInt8], [UInt8], [UInt8])] = [
            ("tag bit flipped", VectorSupport.flip(goodSealed, at: goodSealed.count - 1), nonce, ad),
            ("ciphertext bit flipped", VectorSupport.flip(goodSealed, at: 0), nonce, ad),
            ("additional data changed", goodSealed, nonce, VectorSupport.flip(ad, at: 0)),
            ("nonce changed", goodSealed, VectorSupport.flip(nonce, at: 11), ad),
            ("shorter than a tag", Array(goodSealed.prefix(15)), nonce, ad),
        ]
        for (name, body, n, a) in cases {
            try VectorSupport.expectError(.authenticationFailed, "AEAD open \(name)") { () throws(HandoffError) in
                _ = try VectorPrimitives.open(key: key, nonce: n, sealed: body, additionalData: a)
            }
            out.append(.object(["name": .string("open fails: \(name)"), "source": .string("RFC 8439 section 2.8.2, modified"),
                                "key": .hex(key), "nonce": .hex(n), "additionalData": .hex(a), "sealed": .hex(body),
                                "error": .string(HandoffError.authenticationFailed.identifier)]))
        }
        return out
    }
}
