@testable import AccountHandoff

// A minimal RFC 9180 HPKE for DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20Poly1305
// (suite 0x0020 / 0x0001 / 0x0003), written in the test target only to check AccountHandoff's
// primitives against published HPKE vectors. All four modes (base, psk, auth, auth_psk).
// Not for production: no input validation beyond what the vectors need.

/// RFC 9180 building blocks for the one suite.
enum HPKE {
    /// The HPKE modes of RFC 9180 section 5.
    enum Mode: UInt8 {
        case base = 0, psk = 1, auth = 2, authPSK = 3
    }

    /// `suite_id` for the KEM: "KEM" || I2OSP(kem_id, 2).
    static let kemSuiteID = Array("KEM".utf8) + [0x00, 0x20]
    /// `suite_id` for the key schedule: "HPKE" || kem_id || kdf_id || aead_id.
    static let suiteID = Array("HPKE".utf8) + [0x00, 0x20, 0x00, 0x01, 0x00, 0x03]

    /// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm).
    static func labeledExtract(suiteID: [UInt8], salt: [UInt8], label: String, inputKeyMaterial: [SecretBytes]) throws -> SecretBytes {
        let prefix = try SecretBytes(copying: Array("HPKE-v1".utf8) + suiteID + Array(label.utf8))
        return try HKDF.extract(salt: salt, inputKeyMaterial: [prefix] + inputKeyMaterial)
    }

    /// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L).
    static func labeledExpand(suiteID: [UInt8], pseudorandomKey: SecretBytes, label: String, info: [UInt8],
                              length: Int) throws -> SecretBytes {
        let labeledInfo = [UInt8(length >> 8), UInt8(length & 0xff)] + Array("HPKE-v1".utf8) + suiteID
            + Array(label.utf8) + info
        return try HKDF.expand(pseudorandomKey: pseudorandomKey, info: labeledInfo, length: length)
    }

    /// DeriveKeyPair(ikm) for X25519 (RFC 9180 section 7.1.3).
    static func deriveKeyPair(inputKeyMaterial: [UInt8]) throws -> (privateKey: SecretBytes, publicKey: X25519PublicKey) {
        let prk = try labeledExtract(suiteID: kemSuiteID, salt: [], label: "dkp_prk",
                                 inputKeyMaterial: [try SecretBytes(copying: inputKeyMaterial)])
        let privateKey = try labeledExpand(suiteID: kemSuiteID, pseudorandomKey: prk, label: "sk", info: [], length: 32)
        return (privateKey, X25519.publicKey(for: privateKey))
    }

    /// ExtractAndExpand(dh, kem_context) of DHKEM.
    static func extractAndExpand(diffieHellman: [SecretBytes], kemContext: [UInt8]) throws -> SecretBytes {
        let prk = try labeledExtract(suiteID: kemSuiteID, salt: [], label: "eae_prk", inputKeyMaterial: diffieHellman)
        return try labeledExpand(suiteID: kemSuiteID, pseudorandomKey: prk, label: "shared_secret", info: kemContext, length: 32)
    }

    /// Encap (or AuthEncap when `senderPrivateKey` is given) with a fixed ephemeral key.
    static func encapsulate(ephemeralPrivateKey: SecretBytes, recipient: X25519PublicKey,
                            senderPrivateKey: SecretBytes?) throws -> (sharedSecret: SecretBytes, encapsulated: [UInt8]) {
        let encapsulated = X25519.publicKey(for: ephemeralPrivateKey).bytes
        var diffieHellman = [try X25519.sharedSecret(privateKey: ephemeralPrivateKey, peer: recipient)]
        var kemContext = encapsulated + recipient.bytes
        if let senderPrivateKey {
            diffieHellman.append(try X25519.sharedSecret(privateKey: senderPrivateKey, peer: recipient))
            kemContext += X25519.publicKey(for: senderPrivateKey).bytes
        }
        return (try extractAndExpand(diffieHellman: diffieHellman, kemContext: kemContext), encapsulated)
    }

    /// Decap (or AuthDecap when `sender` is given).
    static func decapsulate(encapsulated: [UInt8], recipientPrivateKey: SecretBytes,
                            sender: X25519PublicKey?) throws -> SecretBytes {
        guard let ephemeral = X25519PublicKey(bytes: encapsulated) else { throw HandoffError.malformed(.publicKey) }
        var diffieHellman = [try X25519.sharedSecret(privateKey: recipientPrivateKey, peer: ephemeral)]
        var kemContext = encapsulated + X25519.publicKey(for: recipientPrivateKey).bytes
        if let sender {
            diffieHellman.append(try X25519.sharedSecret(privateKey: recipientPrivateKey, peer: sender))
            kemContext += sender.bytes
        }
        return try extractAndExpand(diffieHellman: diffieHellman, kemContext: kemContext)
    }

    /// The encryption context that KeySchedule produces.
    struct Context {
        let keyScheduleContext: [UInt8]
        let secret: SecretBytes
        let key: SecretBytes
        let baseNonce: [UInt8]
        let exporterSecret: SecretBytes

        /// base_nonce XOR I2OSP(sequence, 12).
        func nonce(sequence: UInt64) -> [UInt8] {
            baseNonce.enumerated().map { index, byte in
                let shift = 8 * (baseNonce.count - 1 - index)
                return shift < 64 ? byte ^ UInt8(truncatingIfNeeded: sequence >> UInt64(shift)) : byte
            }
        }

        func seal(sequence: UInt64, additionalData: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
            ChaCha20Poly1305.seal(key: key, nonce: nonce(sequence: sequence), plaintext: try SecretBytes(copying: plaintext),
                                  additionalData: additionalData)
        }

        func open(sequence: UInt64, additionalData: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
            try ChaCha20Poly1305.open(key: key, nonce: nonce(sequence: sequence), sealed: ciphertext,
                                      additionalData: additionalData).revealedBytes()
        }

        /// Export(exporter_context, L) = LabeledExpand(exporter_secret, "sec", exporter_context, L).
        func export(exporterContext: [UInt8], length: Int) throws -> SecretBytes {
            try labeledExpand(suiteID: HPKE.suiteID, pseudorandomKey: exporterSecret, label: "sec",
                              info: exporterContext, length: length)
        }
    }

    /// KeySchedule (RFC 9180 section 5.1); base and auth modes use an empty psk and psk_id.
    static func keySchedule(mode: Mode, sharedSecret: SecretBytes, info: [UInt8], psk: [UInt8],
                            pskID: [UInt8]) throws -> Context {
        let pskIDHash = try labeledExtract(suiteID: suiteID, salt: [], label: "psk_id_hash",
                                       inputKeyMaterial: [try SecretBytes(copying: pskID)])
        let infoHash = try labeledExtract(suiteID: suiteID, salt: [], label: "info_hash",
                                      inputKeyMaterial: [try SecretBytes(copying: info)])
        let keyScheduleContext = [mode.rawValue] + pskIDHash.revealedBytes() + infoHash.revealedBytes()
        let secret = try labeledExtract(suiteID: suiteID, salt: sharedSecret.revealedBytes(), label: "secret",
                                    inputKeyMaterial: [try SecretBytes(copying: psk)])
        return Context(
            keyScheduleContext: keyScheduleContext,
            secret: secret,
            key: try labeledExpand(suiteID: suiteID, pseudorandomKey: secret, label: "key", info: keyScheduleContext, length: 32),
            baseNonce: try labeledExpand(suiteID: suiteID, pseudorandomKey: secret, label: "base_nonce",
                                         info: keyScheduleContext, length: 12).revealedBytes(),
            exporterSecret: try labeledExpand(suiteID: suiteID, pseudorandomKey: secret, label: "exp",
                                              info: keyScheduleContext, length: 32))
    }
}
