import Testing
@testable import AccountHandoff

/// RFC 9180 vectors for DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 / ChaCha20Poly1305 (from
/// cloudflare/circl), replayed through the test-only HPKE in `HPKE.swift`: key derivation,
/// encapsulation, key schedule, all 257 encryptions per mode (sealed by the sender, opened by
/// the recipient's own context) and the 3 exports per mode.
@Suite struct HPKEVectorTests {
    private struct Vector: Decodable {
        struct Encryption: Decodable {
            let aad: HexBytes
            let ct: HexBytes
            let nonce: HexBytes
            let pt: HexBytes
        }

        struct Export: Decodable {
            enum CodingKeys: String, CodingKey {
                case exporterContext, length = "L", exportedValue
            }

            let exporterContext: HexBytes
            let length: Int
            let exportedValue: HexBytes
        }

        let mode: UInt8
        let kemId: UInt16
        let kdfId: UInt16
        let aeadId: UInt16
        let info: HexBytes
        let ikmR: HexBytes
        let ikmE: HexBytes
        let ikmS: HexBytes?
        let skRm: HexBytes
        let skEm: HexBytes
        let skSm: HexBytes?
        let pkRm: HexBytes
        let pkEm: HexBytes
        let pkSm: HexBytes?
        let psk: HexBytes?
        let pskId: HexBytes?
        let enc: HexBytes
        let sharedSecret: HexBytes
        let keyScheduleContext: HexBytes
        let secret: HexBytes
        let key: HexBytes
        let baseNonce: HexBytes
        let exporterSecret: HexBytes
        let encryptions: [Encryption]
        let exports: [Export]
    }

    private struct Counts: Equatable {
        var encryptions = 0
        var exports = 0
    }

    private func run(_ vector: Vector) throws -> Counts {
        let mode = try #require(HPKE.Mode(rawValue: vector.mode))
        #expect([vector.kemId, vector.kdfId, vector.aeadId] == [0x0020, 0x0001, 0x0003])

        let recipient = try HPKE.deriveKeyPair(inputKeyMaterial: vector.ikmR.bytes)
        let ephemeral = try HPKE.deriveKeyPair(inputKeyMaterial: vector.ikmE.bytes)
        #expect(recipient.privateKey.revealedBytes() == vector.skRm.bytes, "mode \(mode)")
        #expect(recipient.publicKey.bytes == vector.pkRm.bytes, "mode \(mode)")
        #expect(ephemeral.privateKey.revealedBytes() == vector.skEm.bytes, "mode \(mode)")
        #expect(ephemeral.publicKey.bytes == vector.pkEm.bytes, "mode \(mode)")

        let isAuthenticated = mode == .auth || mode == .authPSK
        var sender: (privateKey: SecretBytes, publicKey: X25519PublicKey)?
        if isAuthenticated {
            let derived = try HPKE.deriveKeyPair(inputKeyMaterial: try #require(vector.ikmS).bytes)
            #expect(derived.privateKey.revealedBytes() == vector.skSm?.bytes, "mode \(mode)")
            #expect(derived.publicKey.bytes == vector.pkSm?.bytes, "mode \(mode)")
            sender = derived
        }

        let (sharedSecret, encapsulated) = try HPKE.encapsulate(
            ephemeralPrivateKey: ephemeral.privateKey, recipient: recipient.publicKey, senderPrivateKey: sender?.privateKey)
        #expect(encapsulated == vector.enc.bytes, "mode \(mode)")
        #expect(sharedSecret.revealedBytes() == vector.sharedSecret.bytes, "mode \(mode)")
        let decapsulated = try HPKE.decapsulate(encapsulated: encapsulated, recipientPrivateKey: recipient.privateKey,
                                                sender: sender?.publicKey)
        #expect(decapsulated.constantTimeEquals(sharedSecret), "mode \(mode)")

        let usesPSK = mode == .psk || mode == .authPSK
        #expect(usesPSK == (vector.psk != nil), "mode \(mode)")
        let psk = vector.psk?.bytes ?? []
        let pskID = vector.pskId?.bytes ?? []
        let senderContext = try HPKE.keySchedule(mode: mode, sharedSecret: sharedSecret, info: vector.info.bytes,
                                                 psk: psk, pskID: pskID)
        let recipientContext = try HPKE.keySchedule(mode: mode, sharedSecret: decapsulated, info: vector.info.bytes,
                                                    psk: psk, pskID: pskID)
        #expect(senderContext.keyScheduleContext == vector.keyScheduleContext.bytes, "mode \(mode)")
        #expect(senderContext.secret.revealedBytes() == vector.secret.bytes, "mode \(mode)")
        #expect(senderContext.key.revealedBytes() == vector.key.bytes, "mode \(mode)")
        #expect(senderContext.baseNonce == vector.baseNonce.bytes, "mode \(mode)")
        #expect(senderContext.exporterSecret.revealedBytes() == vector.exporterSecret.bytes, "mode \(mode)")

        var counts = Counts()
        for (sequence, encryption) in vector.encryptions.enumerated() {
            let sequence = UInt64(sequence)
            #expect(senderContext.nonce(sequence: sequence) == encryption.nonce.bytes, "mode \(mode) seq \(sequence)")
            let sealed = try senderContext.seal(sequence: sequence, additionalData: encryption.aad.bytes,
                                            plaintext: encryption.pt.bytes)
            #expect(sealed == encryption.ct.bytes, "mode \(mode) seq \(sequence)")
            let opened = try recipientContext.open(sequence: sequence, additionalData: encryption.aad.bytes,
                                                   ciphertext: encryption.ct.bytes)
            #expect(opened == encryption.pt.bytes, "mode \(mode) seq \(sequence)")
            counts.encryptions += 1
        }
        for export in vector.exports {
            let exported = try recipientContext.export(exporterContext: export.exporterContext.bytes, length: export.length)
            #expect(exported.revealedBytes() == export.exportedValue.bytes, "mode \(mode) export")
            counts.exports += 1
        }
        return counts
    }

    private func vectors() throws -> [Vector] {
        try ThirdPartyVectors.load("hpke_rfc9180_x25519_sha256_chacha20poly1305.json", as: [Vector].self)
    }

    @Test
    func baseModeKeyScheduleEncryptionsAndExportsMatch() throws {
        let vector = try #require(try vectors().first { $0.mode == HPKE.Mode.base.rawValue })
        #expect(try run(vector) == Counts(encryptions: 257, exports: 3))
    }

    @Test
    func pskModeKeyScheduleEncryptionsAndExportsMatch() throws {
        let vector = try #require(try vectors().first { $0.mode == HPKE.Mode.psk.rawValue })
        #expect(try run(vector) == Counts(encryptions: 257, exports: 3))
    }

    @Test
    func authAndAuthPSKModesKeyScheduleEncryptionsAndExportsMatch() throws {
        let all = try vectors()
        #expect(all.map(\.mode) == [0, 1, 2, 3])
        for mode in [HPKE.Mode.auth, .authPSK] {
            let vector = try #require(all.first { $0.mode == mode.rawValue })
            #expect(try run(vector) == Counts(encryptions: 257, exports: 3), "mode \(mode)")
        }
    }
}
