/// The keys of one session (Spec 4.2), all in guarded memory:
///
/// - `PRK = HKDF-Extract(salt = HH, IKM = sharedSecret | commitment)`
/// - `helloKey = HKDF-Expand(PRK, "AH3 hello", 32)`: the receiver's key-confirmation key
/// - `senderToReceiver = HKDF-Expand(PRK, "AH3 s2r", 32)`, `receiverToSender = HKDF-Expand(PRK, "AH3 r2s", 32)`
/// - `codeKey = HKDF-Expand(PRK, "AH3 code key", 32)`: input of the short code, wiped once the code exists
package struct SessionKeys {
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

    /// Derives every key from the DH result (in guarded memory), the QR's commitment and the
    /// handshake hash. The PRK lives only in a temporary guarded buffer; on failure nothing
    /// derived is left.
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``.
    init(sharedSecret: UnsafeRawBufferPointer, commitment: SecretBytes, handshakeHash: SHA256.Digest) throws(HandoffError) {
        #if HANDOFF_FUZZ_KEY_CACHE
        let derived = try FuzzSessionKeysCache.keys(sharedSecret: sharedSecret, commitment: commitment, handshakeHash: handshakeHash) {
            () throws(HandoffError) in
            let keys = try Self.derive(sharedSecret: sharedSecret, commitment: commitment, handshakeHash: handshakeHash)
            return [keys.hello, keys.senderToReceiver, keys.receiverToSender, keys.code]
        }
        (helloKey, senderToReceiver, receiverToSender, codeKey) = (derived[0], derived[1], derived[2], derived[3])
        #else
        (helloKey, senderToReceiver, receiverToSender, codeKey) =
            try Self.derive(sharedSecret: sharedSecret, commitment: commitment, handshakeHash: handshakeHash)
        #endif
    }

    /// The hello, sender-to-receiver, receiver-to-sender and code keys. Should one of them
    /// fail, those made before it are released as the error leaves, and a released secret is
    /// wiped (``SecretBytes``).
    private static func derive(sharedSecret: UnsafeRawBufferPointer, commitment: SecretBytes, handshakeHash: SHA256.Digest)
        throws(HandoffError) -> (hello: SecretBytes, senderToReceiver: SecretBytes, receiverToSender: SecretBytes, code: SecretBytes) {
        try SecretBytes.withTemporary(byteCount: HMACSHA256.byteCount) { (prk) throws(HandoffError) in
            commitment.withUnsafeBytes { HKDF.extract(salt: handshakeHash, sharedSecret, $0, into: prk) }
            func key(_ label: [UInt8]) throws(HandoffError) -> SecretBytes {
                try HKDF.expand(pseudorandomKey: UnsafeRawBufferPointer(prk), info: label, length: keyByteCount)
            }
            return (try key(Label.hello), try key(Label.senderToReceiver), try key(Label.receiverToSender), try key(Label.codeKey))
        }
    }

    /// Copies of `other`'s keys in new guarded buffers (for ``SecureChannel/copy()``).
    ///
    /// - Throws: ``HandoffError/secureMemoryUnavailable(_:)``; nothing is kept when it throws.
    init(copying other: SessionKeys) throws(HandoffError) {
        let copies = try SecretBytes.all(other.secrets) { (key) throws(HandoffError) in try key.copy() }
        (helloKey, senderToReceiver, receiverToSender, codeKey) = (copies[0], copies[1], copies[2], copies[3])
    }

    /// Writes the hello tag `HMAC-SHA256(helloKey, HH)`, which proves knowledge of the QR's
    /// commitment, into `output` (32 bytes of guarded memory).
    func writeHelloTag(handshakeHash: SHA256.Digest, into output: UnsafeMutableRawBufferPointer) {
        let mac = HMACSHA256(key: helloKey)
        handshakeHash.withUnsafeBytes { mac.update($0) }
        mac.finalize(into: output)
    }

    /// Every secret this object holds, for wiping and for memory-cleanup checks.
    var secrets: [SecretBytes] { [helloKey, senderToReceiver, receiverToSender, codeKey] }

    /// Wipes every key.
    func wipe() {
        helloKey.wipe()
        senderToReceiver.wipe()
        receiverToSender.wipe()
        codeKey.wipe()
    }
}
