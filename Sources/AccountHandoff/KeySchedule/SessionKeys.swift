/// The keys of one session (Spec 4.2), kept in the session's arena:
///
/// - `PRK = HKDF-Extract(salt = HH, IKM = sharedSecret | commitment)`
/// - `helloKey = HKDF-Expand(PRK, "AH4 hello", 32)`: the receiver's key-confirmation key
/// - `senderToReceiver = HKDF-Expand(PRK, "AH4 s2r", 32)`, `receiverToSender = HKDF-Expand(PRK, "AH4 r2s", 32)`
/// - `codeKey = HKDF-Expand(PRK, "AH4 code key", 32)`: input of the short code, wiped once the code exists
package struct SessionKeys {
    /// HKDF info labels, ASCII without terminator.
    package enum Label {
        package static let hello = Array("AH4 hello".utf8)
        package static let senderToReceiver = Array("AH4 s2r".utf8)
        package static let receiverToSender = Array("AH4 r2s".utf8)
        package static let codeKey = Array("AH4 code key".utf8)
        /// The four labels in the order the keys lie side by side (built once, not per session).
        static let inDerivedOrder = [hello, senderToReceiver, receiverToSender, codeKey]
    }

    static let keyByteCount = 32
    /// The four keys side by side, as ``derive(sharedSecret:commitment:handshakeHash:into:arena:)``
    /// writes them: hello, sender-to-receiver, receiver-to-sender, code.
    static let derivedByteCount = 4 * keyByteCount

    let helloKey: SessionSecret
    let senderToReceiver: SessionSecret
    let receiverToSender: SessionSecret
    let codeKey: SessionSecret

    /// Keeps, in `arena`, the four keys that ``derive(sharedSecret:commitment:handshakeHash:into:arena:)``
    /// wrote into `derived`.
    init(keeping derived: UnsafeRawBufferPointer, in arena: SessionArena) {
        precondition(derived.count == Self.derivedByteCount, "four session keys")
        func key(_ index: Int) -> SessionSecret {
            arena.keep(copying: UnsafeRawBufferPointer(rebasing: derived[(index * Self.keyByteCount)..<((index + 1) * Self.keyByteCount)]))
        }
        (helloKey, senderToReceiver, receiverToSender, codeKey) = (key(0), key(1), key(2), key(3))
    }

    /// Copies of `other`'s keys, kept in `arena` (for ``SecureChannel/copy(in:)``).
    init(copying other: SessionKeys, in arena: SessionArena) {
        func copy(_ key: SessionSecret) -> SessionSecret { key.withUnsafeBytes { arena.keep(copying: $0) } }
        (helloKey, senderToReceiver, receiverToSender, codeKey) =
            (copy(other.helloKey), copy(other.senderToReceiver), copy(other.receiverToSender), copy(other.codeKey))
    }

    /// Derives the four keys from the DH result, the QR's commitment and the handshake hash
    /// into `derived` (``derivedByteCount`` bytes of guarded memory); the PRK lives only in a
    /// temporary of `arena`.
    static func derive(sharedSecret: UnsafeRawBufferPointer, commitment: UnsafeRawBufferPointer, handshakeHash: SHA256.Digest,
                       into derived: UnsafeMutableRawBufferPointer, arena: SessionArena) {
        precondition(derived.count == derivedByteCount, "four session keys")
        #if HANDOFF_FUZZ_KEY_CACHE
        FuzzSessionKeysCache.derive(sharedSecret: sharedSecret, commitment: commitment, handshakeHash: handshakeHash,
                                    into: derived) { deriveKeys(sharedSecret, commitment, handshakeHash, into: derived, arena: arena) }
        #else
        deriveKeys(sharedSecret, commitment, handshakeHash, into: derived, arena: arena)
        #endif
    }

    private static func deriveKeys(_ sharedSecret: UnsafeRawBufferPointer, _ commitment: UnsafeRawBufferPointer,
                                   _ handshakeHash: SHA256.Digest, into derived: UnsafeMutableRawBufferPointer,
                                   arena: SessionArena) {
        arena.withScratch(byteCount: HMACSHA256.byteCount) { prk in
            HKDF.extract(salt: handshakeHash, sharedSecret, commitment, into: prk)
            for (index, label) in Label.inDerivedOrder.enumerated() {
                let key = UnsafeMutableRawBufferPointer(rebasing: derived[(index * keyByteCount)..<((index + 1) * keyByteCount)])
                HKDF.expand(pseudorandomKey: UnsafeRawBufferPointer(prk), info: label, intoBlock: key)
            }
        }
    }

    /// Writes the hello tag `HMAC-SHA256(helloKey, HH)`, which proves knowledge of the QR's
    /// commitment, into `output` (32 bytes of guarded memory).
    static func writeHelloTag(helloKey: UnsafeRawBufferPointer, handshakeHash: SHA256.Digest,
                              into output: UnsafeMutableRawBufferPointer) {
        handshakeHash.withUnsafeBytes { HMACSHA256.tag(key: helloKey, $0, into: output) }
    }

    /// Every key, for wiping and for tests.
    var secrets: [SessionSecret] { [helloKey, senderToReceiver, receiverToSender, codeKey] }

    /// Wipes every key.
    func wipe() {
        helloKey.wipe()
        senderToReceiver.wipe()
        receiverToSender.wipe()
        codeKey.wipe()
    }
}
