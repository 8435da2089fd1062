/// The keys of one session (Spec 4.2), all in guarded memory:
///
/// - `PRK = HKDF-Extract(salt = HH, IKM = sharedSecret | challenge)`
/// - `helloKey = HKDF-Expand(PRK, "AH1 hello", 32)`: the receiver's key-confirmation key
/// - `senderToReceiver = HKDF-Expand(PRK, "AH1 s2r", 32)`, `receiverToSender = HKDF-Expand(PRK, "AH1 r2s", 32)`
/// - `codeMaterial = HKDF-Expand(PRK, "AH1 code", 64)`: input of the short code
final class SessionKeys {
    /// HKDF info labels, ASCII without terminator.
    enum Label {
        static let hello = Array("AH1 hello".utf8)
        static let senderToReceiver = Array("AH1 s2r".utf8)
        static let receiverToSender = Array("AH1 r2s".utf8)
        static let code = Array("AH1 code".utf8)
    }

    let helloKey: SecretBytes
    let senderToReceiver: SecretBytes
    let receiverToSender: SecretBytes
    let shortCode: ShortCode

    /// Derives every key from the DH result, the QR challenge and the handshake hash.
    /// The PRK and the code material are wiped before returning.
    init(sharedSecret: SecretBytes, challenge: SecretBytes, handshakeHash: [UInt8]) throws(HandoffError) {
        let prk = HKDF.extract(salt: handshakeHash, inputKeyMaterial: [sharedSecret, challenge])
        defer { prk.wipe() }
        helloKey = try HKDF.expand(pseudorandomKey: prk, info: Label.hello, length: 32)
        senderToReceiver = try HKDF.expand(pseudorandomKey: prk, info: Label.senderToReceiver, length: 32)
        receiverToSender = try HKDF.expand(pseudorandomKey: prk, info: Label.receiverToSender, length: 32)
        let material = try HKDF.expand(pseudorandomKey: prk, info: Label.code, length: ShortCode.materialByteCount)
        defer { material.wipe() }
        guard let code = material.withUnsafeBytes({ ShortCode(material: $0) }) else {
            [helloKey, senderToReceiver, receiverToSender].forEach { $0.wipe() }
            throw .keyDerivationFailed
        }
        shortCode = code
    }

    /// The hello tag `HMAC-SHA256(helloKey, HH)` that proves knowledge of the QR challenge.
    func helloTag(handshakeHash: [UInt8]) -> SecretBytes {
        HMACSHA256.authenticate(key: helloKey, message: handshakeHash)
    }

    /// Every secret this object holds, for wiping and for memory-cleanup checks.
    var secrets: [SecretBytes] { [helloKey, senderToReceiver, receiverToSender] }

    /// Wipes every key.
    func wipe() { secrets.forEach { $0.wipe() } }
}
