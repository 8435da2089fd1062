/// The guarded memory a session can hold at once between its start and its end, counted
/// from the code that allocates it: what ``HandoffSender/start(account:rendezvous:configuration:random:now:registry:)``
/// and ``HandoffReceiver/scan(payload:expecting:configuration:random:now:registry:)`` reserve
/// before anything is pending (Spec 8.5), so that no step of an admitted session can be
/// refused for want of locked memory.
///
/// Each moment lists the secrets live together at one point (every temporary counted until
/// the end of the scope that holds it). `SessionMemoryTests` runs every path of both state
/// machines and checks that none draws more than its reservation.
package enum SessionMemory {
    /// The four session keys (Spec 4.2): hello, sender-to-receiver, receiver-to-sender, code.
    private static let sessionKeys = [Int](repeating: SessionKeys.keyByteCount, count: 4)
    /// Deriving them (``HelloHandshake``): the X25519 shared secret and the PRK next to the keys.
    private static let keyDerivation = [X25519PublicKey.byteCount, HMACSHA256.byteCount] + sessionKeys
    /// The hello tag made or checked with the keys (Spec 5.1).
    private static let helloTag = [HMACSHA256.byteCount]
    /// Deriving the short code (Spec 4.4): `codePRK` and the code material.
    private static let codeDerivation = [HMACSHA256.byteCount, ShortCode.materialByteCount]
    /// An opened abort or receipt (one byte) or accept (empty, one byte allocated).
    private static let shortPlaintext = [1]
    /// The password as the app hands it in (any length up to the longest) and its padded
    /// plaintext (Spec 3.5).
    private static let credential = [CredentialPlaintext.maximumCredentialByteCount, CredentialPlaintext.paddedByteCount]

    /// What the sender keeps from `start` to the end to verify any hello: its private key and
    /// its copy of the commitment (Spec 6.5); and the nonce, secret until it is revealed.
    private static let senderHeld = [X25519PublicKey.byteCount, SHA256.byteCount]
    private static let nonce = [Commitment.nonceByteCount]
    /// The reference transport's keys (Spec 11.3), derived by the sender's driver under the
    /// session's reservation: while deriving, the commitment copy, `transportPRK`, the
    /// admission key and one public output at a time; afterwards the admission key.
    private static let transportDerivation = [SHA256.byteCount, HMACSHA256.byteCount, TransportKeys.admissionKeyByteCount,
                                              max(TransportKeys.sessionHintByteCount, TransportKeys.relayTokenByteCount,
                                                  TransportKeys.senderSideByteCount)]
    private static let transportHeld = [TransportKeys.admissionKeyByteCount]

    /// The sender (Spec 6.1). The busiest moment is a second device's hello verified while
    /// the first receiver's keys are live (contested, Spec 6.6): 13 slots of 32 bytes.
    package static let sender = SecureMemoryDemand(moments: [
        // awaitingHello: the driver derives the transport keys; the first hello is verified,
        // then the code derived while the nonce is still held.
        senderHeld + nonce + transportDerivation,
        senderHeld + nonce + transportHeld + keyDerivation,
        senderHeld + nonce + transportHeld + sessionKeys + helloTag,
        senderHeld + nonce + transportHeld + sessionKeys + codeDerivation,
        // Once a hello is accepted: a second device's hello next to the first one's keys.
        senderHeld + transportHeld + sessionKeys + keyDerivation,
        senderHeld + transportHeld + sessionKeys + sessionKeys + helloTag,
        // An accept, receipt or abort opened; the password handed in and padded.
        senderHeld + transportHeld + sessionKeys + shortPlaintext,
        senderHeld + transportHeld + sessionKeys + credential,
    ])

    /// The longest offer plaintext a frame can carry: the largest multiple of the offer's
    /// block within a frame's body (Spec 3.2, 3.4).
    package static let longestOfferPlaintext = (Frame.maximumByteCount - Frame.headerByteCount - ChaCha20Poly1305.tagByteCount)
        / AccountMetadataCodec.blockByteCount * AccountMetadataCodec.blockByteCount

    /// The receiver (Spec 6.2). Its private key and commitment copy live only during the scan
    /// (Spec 6.5); the largest slot is the longest offer a sender can send.
    package static let receiver = SecureMemoryDemand(moments: [
        // scan (S5-S7): the keys derived and the hello tag made next to the key pair and commitment.
        [X25519PublicKey.byteCount, SHA256.byteCount] + keyDerivation,
        [X25519PublicKey.byteCount, SHA256.byteCount] + sessionKeys + helloTag,
        // The reveal opened and the code derived.
        sessionKeys + [Commitment.nonceByteCount] + codeDerivation,
        // The offer opened.
        sessionKeys + [longestOfferPlaintext],
        // The credential frame opened and the password delivered to the app.
        sessionKeys + credential,
        // An abort opened.
        sessionKeys + shortPlaintext,
    ])
}
