import Testing
@testable import AccountHandoff

/// SHA-256 against FIPS 180 examples and HMAC-SHA256 against RFC 4231.
@Suite struct SHA256KnownAnswerTests {
    @Test func fips180DigestOfAbcMatches() {
        #expect(Hex.encode(SHA256.hash(Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func digestOfEmptyStringMatches() {
        let expected = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        #expect(Hex.encode(SHA256.hash([])) == expected)
        #expect(Hex.encode(SHA256.hash()) == expected)
        #expect(Hex.encode(SHA256.hash(parts: [])) == expected)
    }

    /// FIPS 180's two-block example (448 bits of input).
    @Test func fips180TwoBlockMessageMatches() {
        #expect(Hex.encode(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func digestOfPartsEqualsDigestOfConcatenation() {
        let whole = SHA256.hash(Array("abc".utf8))
        #expect(SHA256.hash(Array("a".utf8), [], Array("bc".utf8)) == whole)
        #expect(SHA256.hash(parts: [Array("ab".utf8), Array("c".utf8)]) == whole)
        #expect(SHA256.hash(Array("abd".utf8)) != whole)
    }

    @Test func hmacRFC4231TestCase1Matches() throws {
        let key = try SecretBytes(copying: [UInt8](repeating: 0x0b, count: 20))
        #expect(try HMACSHA256.authenticate(key: key, message: Array("Hi There".utf8)).revealedHex
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func hmacRFC4231TestCase2ShortKeyMatches() throws {
        #expect(try HMACSHA256.authenticate(key: SecretBytes(utf8: "Jefe"), message: Array("what do ya want for nothing?".utf8)).revealedHex
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// A key longer than the 64-byte block must be hashed first.
    @Test func hmacRFC4231TestCase6KeyLongerThanBlockMatches() throws {
        let key = try SecretBytes(copying: [UInt8](repeating: 0xaa, count: 131))
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(try HMACSHA256.authenticate(key: key, message: message).revealedHex
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func hmacIncrementalUpdatesEqualOneShotAndAcceptEmptyKeyAndSecretInput() throws {
        let key = try SecretBytes(copying: [UInt8](repeating: 0x0b, count: 20))
        let mac = HMACSHA256.keyed(key)
        mac.update(Array("Hi ".utf8))
        mac.update([])
        mac.update(try SecretBytes(utf8: "There"))
        #expect(try mac.finalize().revealedHex == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")

        // HMAC with an empty key and empty message (value from Python's hmac module).
        let emptyKeyed = [UInt8]().withUnsafeBytes { HMACSHA256(keyBytes: $0) }
        #expect(try emptyKeyed.finalize().revealedHex == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        #expect(try HMACSHA256.authenticate(key: SecretBytes(copying: []), message: []).revealedHex
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
