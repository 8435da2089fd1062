/// The keys of one session (Spec 4.2), all in guarded memory:
///
/// - `PRK = HKDF-Extract(salt = HH, IKM = sharedSecret | commitment)`
/// - `helloKey = HKDF-Expand(PRK, "AH3 hello", 32)`: the receiver's key-confirmation key
/// - `senderToReceiver = HKDF-Expand(PRK, "AH3 s2r", 32)`, `receiverToSender = HKDF-Expand(PRK, "AH3 r2s", 32)`
/// - `codeKey = HKDF-Expand(PRK, "AH3 code key", 32)`: input of the short code, wiped once the code exists
package final class SessionKeys {
    /// HKDF info labels, ASCII without terminator.
    package enum Label {
        package static let hello = Array("AH3 hello".utf8)
        package static let senderToReceiver = Array("AH3 s2r".utf8)
        package static let receiverToSender = Array("AH3 r2s".utf8)
        package static let codeKey = Array("AH3 code key".utf8)
    }

    static let keyByteCount = 32

    let helloKey: SecretBytes
    let senderToReceiver: SecretBytes
    let receiverToSender: SecretBytes
    let codeKey: SecretBytes

    /// Derives every key from the DH result, the QR's commitment and the handshake hash.
    /// The PRK is wiped before returning; on failure nothing derived is left.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    init(sharedSecret: SecretBytes, commitment: SecretBytes, handshakeHash: [UInt8]) throws(HandoffError) {
        #if HANDOFF_FUZZ_KEY_CACHE
        let derived = try FuzzSessionKeysCache.keys(sharedSecret: sharedSecret, commitment: commitment, handshakeHash: handshakeHash) {
            () throws(HandoffError) in try Self.derive(sharedSecret: sharedSecret, commitment: commitment, handshakeHash: handshakeHash)
        }
        #else
        let derived = try Self.derive(sharedSecret: sharedSecret, commitment: commitment, handshakeHash: handshakeHash)
        #endif
        (helloKey, senderToReceiver, receiverToSender, codeKey) = (derived[0], derived[1], derived[2], derived[3])
    }

    /// The hello, sender-to-receiver, receiver-to-sender and code keys, in that order.
    private static func derive(sharedSecret: SecretBytes, commitment: SecretBytes,
                               handshakeHash: [UInt8]) throws(HandoffError) -> [SecretBytes] {
        let prk = try HKDF.extract(salt: handshakeHash, inputKeyMaterial: [sharedSecret, commitment])
        defer { prk.wipe() }
        return try SecretBytes.all([Label.hello, Label.senderToReceiver, Label.receiverToSender, Label.codeKey]) {
            (label) throws(HandoffError) in try HKDF.expand(pseudorandomKey: prk, info: label, length: Self.keyByteCount)
        }
    }

    /// Copies of `other`'s keys in new guarded buffers (for ``SecureChannel/copy()``).
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``; nothing is kept when it throws.
    init(copying other: SessionKeys) throws(HandoffError) {
        let copies = try SecretBytes.all(other.secrets) { (key) throws(HandoffError) in try key.copy() }
        (helloKey, senderToReceiver, receiverToSender, codeKey) = (copies[0], copies[1], copies[2], copies[3])
    }

    /// The hello tag `HMAC-SHA256(helloKey, HH)` that proves knowledge of the QR's commitment.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    func helloTag(handshakeHash: [UInt8]) throws(HandoffError) -> SecretBytes {
        try HMACSHA256.authenticate(key: helloKey, message: handshakeHash)
    }

    /// Every secret this object holds, for wiping and for memory-cleanup checks.
    var secrets: [SecretBytes] { [helloKey, senderToReceiver, receiverToSender, codeKey] }

    /// Wipes every key.
    func wipe() { secrets.forEach { $0.wipe() } }
}
