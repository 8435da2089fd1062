import AccountHandoff

/// The admission exchange that opens every connection before any frame (Spec 11.4):
///
/// ```
/// challenge = "AH4A" | sessionHint[8] | challengeNonce[16]          28 bytes, sender to receiver
/// response  = "AH4B" | first 16 bytes of HMAC(admissionKey,
///                        "AH4 admission" | sessionHint | challengeNonce)   20 bytes, receiver to sender
/// ```
///
/// Only someone who saw the QR can answer, so nothing else reaches the sender's session; the
/// sender pays one HMAC per connection.
public enum Admission {
    /// The challenge's magic.
    public static let challengeMagic = Array("AH4A".utf8)
    /// The response's magic.
    public static let responseMagic = Array("AH4B".utf8)
    /// Bytes of a challenge.
    public static let challengeByteCount = challengeMagic.count + TransportKeys.sessionHintByteCount + TransportKeys.challengeNonceByteCount
    /// Bytes of a response.
    public static let responseByteCount = responseMagic.count + TransportKeys.admissionTagByteCount

    /// The challenge the sender sends first on a connection.
    ///
    /// - Parameter nonce: 16 fresh random bytes, one draw per connection.
    public static func challenge(keys: TransportKeys, nonce: [UInt8]) -> [UInt8] {
        precondition(nonce.count == TransportKeys.challengeNonceByteCount, "challenge nonce size")
        return challengeMagic + keys.sessionHint + nonce
    }

    /// What a receiver makes of the 28 bytes it read first.
    public enum ChallengeVerdict: Hashable, Sendable {
        /// Answer with this response, then send frames.
        case answer([UInt8])
        /// The sender serves another QR now: the scanned one was renewed (Spec 11.8).
        case renewedCode
        /// Not a handoff sender's challenge.
        case notAChallenge
    }

    /// The receiver's side: checks the magic and the session hint, and computes the response.
    public static func answer(_ challenge: [UInt8], keys: TransportKeys) -> ChallengeVerdict {
        guard challenge.count == challengeByteCount, challenge.starts(with: challengeMagic) else { return .notAChallenge }
        let hintEnd = challengeMagic.count + TransportKeys.sessionHintByteCount
        guard Array(challenge[challengeMagic.count..<hintEnd]) == keys.sessionHint else { return .renewedCode }
        return .answer(responseMagic + keys.admissionTag(challengeNonce: Array(challenge[hintEnd...])))
    }

    /// The sender's side: whether `response` answers the challenge with `nonce`, the tag
    /// compared in constant time.
    public static func accepts(_ response: [UInt8], keys: TransportKeys, nonce: [UInt8]) -> Bool {
        guard response.count == responseByteCount, response.starts(with: responseMagic) else { return false }
        return keys.isAdmissionTag(Array(response[responseMagic.count...]), challengeNonce: nonce)
    }
}
