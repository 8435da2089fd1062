import Testing
@testable import AccountHandoff

/// X25519 against RFC 7748 (sections 5.2 and 6.1) and the small-order points every
/// implementation must refuse to turn into a key.
@Suite struct X25519KnownAnswerTests {
    /// `X25519(k, u)` through the production entry point.
    private func scalarMultiply(scalar: [UInt8], u: [UInt8]) throws -> [UInt8] {
        let peer = try #require(X25519PublicKey(bytes: u))
        return try X25519.sharedSecret(privateKey: SecretBytes(copying: scalar), peer: peer).revealedBytes()
    }

    @Test func rfc7748Section5_2FirstVectorMatches() throws {
        let output = try scalarMultiply(
            scalar: [UInt8](hex: "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
            u: [UInt8](hex: "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"))
        #expect(Hex.encode(output) == "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552")
    }

    /// The input u-coordinate has its top bit set; RFC 7748 requires it to be masked.
    @Test func rfc7748Section5_2SecondVectorMatchesAndMasksTheTopBit() throws {
        let output = try scalarMultiply(
            scalar: [UInt8](hex: "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d"),
            u: [UInt8](hex: "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493"))
        #expect(Hex.encode(output) == "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957")
    }

    /// Section 5.2's iteration: start with k = u = 9, then repeatedly `(k, u) = (X25519(k, u), k)`.
    /// The RFC's 1,000,000-iteration value is left out on purpose: it takes minutes and the
    /// default `swift test` must stay fast. 1 and 1,000 iterations already chain 1,000 outputs.
    @Test func rfc7748Section5_2IteratedOnceAndOneThousandTimes() throws {
        var k: [UInt8] = [9] + [UInt8](repeating: 0, count: 31)
        var u = k
        var afterOne: [UInt8] = []
        for iteration in 1...1_000 {
            let next = try scalarMultiply(scalar: k, u: u)
            u = k
            k = next
            if iteration == 1 { afterOne = k }
        }
        #expect(Hex.encode(afterOne) == "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079")
        #expect(Hex.encode(k) == "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    }

    @Test func rfc7748Section6_1DiffieHellmanPublicKeysAndSharedSecretMatch() throws {
        let alicePrivate = try SecretBytes(hex: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        let bobPrivate = try SecretBytes(hex: "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
        let alicePublic = X25519.publicKey(for: alicePrivate)
        let bobPublic = X25519.publicKey(for: bobPrivate)
        #expect(Hex.encode(alicePublic.bytes) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(Hex.encode(bobPublic.bytes) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let expectedShared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(try X25519.sharedSecret(privateKey: alicePrivate, peer: bobPublic).revealedHex == expectedShared)
        #expect(try X25519.sharedSecret(privateKey: bobPrivate, peer: alicePublic).revealedHex == expectedShared)
    }

    @Test func publicKeyRejectsEveryLengthButThirtyTwo() {
        #expect(X25519PublicKey(bytes: []) == nil)
        #expect(X25519PublicKey(bytes: [UInt8](repeating: 9, count: 31)) == nil)
        #expect(X25519PublicKey(bytes: [UInt8](repeating: 9, count: 33)) == nil)
        #expect(X25519PublicKey(bytes: [UInt8](repeating: 9, count: 32))?.bytes.count == 32)
    }

    /// The u-coordinates of small order on Curve25519 and its twist: 0, 1, the two points of
    /// order 8, p - 1, and the non-canonical encodings p and p + 1 (equal to 0 and 1).
    static let smallOrderPoints: [String] = [
        "0000000000000000000000000000000000000000000000000000000000000000",  // 0
        "0100000000000000000000000000000000000000000000000000000000000000",  // 1
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",  // order 8
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",  // order 8
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // p - 1 (order 2)
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // p (= 0)
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // p + 1 (= 1)
    ]

    /// The same points with the (ignored) top bit set: X25519 masks it, so they must fail too.
    static let smallOrderPointsWithTopBit: [String] = smallOrderPoints.map { hex in
        let lastByte = UInt8(hex.suffix(2), radix: 16)! | 0x80
        return String(hex.dropLast(2)) + Hex.encode([lastByte])
    }

    @Test(arguments: smallOrderPoints + smallOrderPointsWithTopBit)
    func smallOrderPeerKeyThrowsLowOrderPublicKey(pointHex: String) throws {
        let peer = try #require(X25519PublicKey(bytes: [UInt8](hex: pointHex)))
        // Several scalars, including the RFC's, so no private key happens to be special.
        let scalars = [
            "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
            "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        ]
        for scalar in scalars {
            let privateKey = try SecretBytes(hex: scalar)
            #expect(throws: HandoffError.lowOrderPublicKey) {
                _ = try X25519.sharedSecret(privateKey: privateKey, peer: peer)
            }
        }
    }

    @Test func keyPairFromRandomSourceMatchesPublicKeyDerivationAndWipes() throws {
        let arena = try SessionArena(byteCount: X25519PublicKey.byteCount)
        let keyPair = X25519KeyPair(random: SystemRandomSource(), in: arena)
        #expect(keyPair.privateKey.withUnsafeBytes { X25519.publicKey(for: $0) } == keyPair.publicKey)
        #expect(keyPair.privateKey.revealedBytes().contains { $0 != 0 })
        keyPair.wipe()
        #expect(keyPair.privateKey.isWiped)
        #expect(try #require(arena.guardedPages).isZero(arena.range))
    }
}
