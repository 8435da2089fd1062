import Testing
@testable import AccountHandoff

/// HKDF-SHA256 against RFC 5869 appendix A.1 to A.3, plus its length limit.
@Suite struct HKDFKnownAnswerTests {
    private struct Case {
        let inputKeyMaterial: String
        let salt: String
        let info: String
        let length: Int
        let pseudorandomKey: String
        let outputKeyMaterial: String
    }

    private func check(_ vector: Case) throws {
        let prk = try HKDF.extract(salt: try [UInt8](hex: vector.salt),
                               inputKeyMaterial: [try SecretBytes(hex: vector.inputKeyMaterial)])
        #expect(prk.revealedHex == vector.pseudorandomKey)
        let okm = try HKDF.expand(pseudorandomKey: prk, info: try [UInt8](hex: vector.info), length: vector.length)
        #expect(okm.count == vector.length)
        #expect(okm.revealedHex == vector.outputKeyMaterial)
    }

    @Test func rfc5869A1BasicCaseMatches() throws {
        try check(Case(
            inputKeyMaterial: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            salt: "000102030405060708090a0b0c",
            info: "f0f1f2f3f4f5f6f7f8f9",
            length: 42,
            pseudorandomKey: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
            outputKeyMaterial: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
    }

    @Test func rfc5869A2LongInputsAndOutputMatch() throws {
        try check(Case(
            inputKeyMaterial: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                + "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
            salt: "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
                + "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
            info: "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecf"
                + "d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
            length: 82,
            pseudorandomKey: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
            outputKeyMaterial: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
                + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"))
    }

    /// A.3 uses an empty salt and info; RFC 5869 section 2.2 says an empty salt is 32 zero bytes.
    @Test func rfc5869A3EmptySaltAndInfoMatches() throws {
        try check(Case(
            inputKeyMaterial: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            salt: "",
            info: "",
            length: 42,
            pseudorandomKey: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
            outputKeyMaterial: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }

    @Test func emptySaltEqualsThirtyTwoZeroBytesOfSalt() throws {
        let ikm = try SecretBytes(hex: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b")
        let withEmpty = try HKDF.extract(salt: [], inputKeyMaterial: [ikm])
        let withZeros = try HKDF.extract(salt: [UInt8](repeating: 0, count: 32), inputKeyMaterial: [ikm])
        #expect(withEmpty.constantTimeEquals(withZeros))
        #expect(withEmpty.revealedHex == "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04")
    }

    @Test func inputKeyMaterialPartsAreConcatenated() throws {
        let salt = try [UInt8](hex: "000102030405060708090a0b0c")
        let parts = [try SecretBytes(copying: [UInt8](repeating: 0x0b, count: 7)),
                     try SecretBytes(copying: []),
                     try SecretBytes(copying: [UInt8](repeating: 0x0b, count: 15))]
        #expect(try HKDF.extract(salt: salt, inputKeyMaterial: parts).revealedHex
            == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
    }

    @Test func expandAcceptsExactlyTheMaximumLengthAndZero() throws {
        let prk = try SecretBytes(hex: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        #expect(HKDF.maximumOutputLength == 8160)
        let longest = try HKDF.expand(pseudorandomKey: prk, info: [], length: 8160)
        #expect(longest.count == 8160)
        // Its first 32 bytes are T(1), the same as a 32-byte request.
        let first = try HKDF.expand(pseudorandomKey: prk, info: [], length: 32)
        #expect(Array(longest.revealedBytes().prefix(32)) == first.revealedBytes())
        #expect(try HKDF.expand(pseudorandomKey: prk, info: [], length: 0).count == 0)
    }

    @Test(arguments: [8161, 255 * 32 + 32, Int.max, -1])
    func expandWithLengthOutsideZeroTo8160ThrowsKeyDerivationFailed(length: Int) throws {
        let prk = try SecretBytes(hex: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        #expect(throws: HandoffError.keyDerivationFailed) {
            _ = try HKDF.expand(pseudorandomKey: prk, info: [], length: length)
        }
    }
}
