import Foundation

/// Everything the QR code carries, and nothing else (Spec section 2).
///
/// Its stored properties are fixed-size session fields plus a rendezvous token capped at
/// 32 bytes; there is no field, extension point or free-form data that could hold account
/// metadata, a credential or ciphertext, and ``text`` is built only from these fields.
public struct SessionPayload: Hashable, Sendable {
    /// The protocol version this library speaks.
    public static let currentVersion: UInt8 = 1
    /// The QR text prefix, a URI scheme in QR alphanumeric characters.
    public static let textPrefix = "AH:"
    /// Length of the challenge (the QR secret) in bytes.
    public static let challengeByteCount = 16
    /// Length of the binary form without the rendezvous token bytes.
    public static let fixedByteCount = 1 + 1 + TransferID.byteCount + 4 + challengeByteCount + X25519PublicKey.byteCount + 1
    /// Longest binary form.
    public static let maximumByteCount = fixedByteCount + RendezvousToken.maximumByteCount
    /// Longest text form; longer input is refused before any parsing.
    public static let maximumTextLength = textPrefix.utf8.count + 17 * (maximumByteCount / 7) + DecimalChunks.digitsPerByteCount[maximumByteCount % 7]

    /// Protocol version (always ``currentVersion`` once decoded).
    public let version: UInt8
    /// What the scanning device is asked to do.
    public let intent: TransferIntent
    /// The one-time transfer identifier.
    public let transferID: TransferID
    /// Expiry as Unix seconds; the sender enforces it, the receiver checks it with skew tolerance.
    public let expiry: UInt32
    /// The QR secret: proves to the sender that a receiver saw the QR. 16 bytes.
    public let challenge: [UInt8]
    /// The sender's ephemeral X25519 public key.
    public let senderPublicKey: X25519PublicKey
    /// Where the receiver connects.
    public let rendezvous: RendezvousToken

    /// The expiry as a `Date`.
    public var expiryDate: Date { Date(timeIntervalSince1970: TimeInterval(expiry)) }

    init(intent: TransferIntent, transferID: TransferID, expiry: UInt32, challenge: [UInt8],
         senderPublicKey: X25519PublicKey, rendezvous: RendezvousToken) {
        precondition(challenge.count == Self.challengeByteCount, "challenge size")
        self.version = Self.currentVersion
        self.intent = intent
        self.transferID = transferID
        self.expiry = expiry
        self.challenge = challenge
        self.senderPublicKey = senderPublicKey
        self.rendezvous = rendezvous
    }

    /// The binary form (Spec 2.2): version, intent, transfer ID, expiry, challenge,
    /// sender public key, rendezvous length, rendezvous bytes. The transcript hashes these bytes.
    public var binary: [UInt8] {
        var writer = ByteWriter()
        writer.write(version)
        writer.write(intent.rawValue)
        writer.write(transferID.bytes)
        writer.write(expiry)
        writer.write(challenge)
        writer.write(senderPublicKey.bytes)
        writer.write(UInt8(rendezvous.bytes.count))
        writer.write(rendezvous.bytes)
        return writer.bytes
    }

    /// The QR text (Spec 2.3): `AH:` followed by the binary form in decimal groups.
    public var text: String { Self.textPrefix + DecimalChunks.encode(binary) }

    /// Decodes and strictly validates a QR text. Does not check the expiry against a clock;
    /// ``HandoffReceiver`` does that when the session starts.
    ///
    /// - Throws: ``HandoffError/malformed(_:)`` (`length`, `digits`, a truncated field,
    ///   `trailingBytes`), ``HandoffError/badMagic``, ``HandoffError/nonCanonicalEncoding``,
    ///   ``HandoffError/unsupportedVersion(_:)``, ``HandoffError/wrongIntent(_:)``,
    ///   ``HandoffError/rendezvousTooLong(_:)``.
    public init(text: String) throws(HandoffError) {
        let utf8 = text.utf8
        guard utf8.count <= Self.maximumTextLength else { throw .malformed(.length) }
        guard utf8.starts(with: Self.textPrefix.utf8) else { throw .badMagic }
        let digits = text.utf8.dropFirst(Self.textPrefix.utf8.count)
        try self.init(binary: DecimalChunks.decode(Substring(digits)))
    }

    /// Decodes and strictly validates the binary form.
    ///
    /// - Throws: the same errors as ``init(text:)`` except the text-level ones.
    public init(binary: [UInt8]) throws(HandoffError) {
        guard binary.count <= Self.maximumByteCount else { throw .malformed(.length) }
        var reader = ByteReader(binary)
        let version = try reader.readUInt8(.version)
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        let rawIntent = try reader.readUInt8(.intent)
        guard let intent = TransferIntent(rawValue: rawIntent) else { throw .wrongIntent(rawIntent) }
        let transferID = TransferID(bytes: try reader.read(count: TransferID.byteCount, .transferID))!
        let expiry = try reader.readUInt32(.expiry)
        let challenge = try reader.read(count: Self.challengeByteCount, .challenge)
        let publicKey = X25519PublicKey(bytes: try reader.read(count: X25519PublicKey.byteCount, .publicKey))!
        let rendezvousLength = Int(try reader.readUInt8(.rendezvous))
        guard rendezvousLength <= RendezvousToken.maximumByteCount else { throw .rendezvousTooLong(rendezvousLength) }
        let rendezvous = try RendezvousToken(bytes: reader.read(count: rendezvousLength, .rendezvous))
        try reader.expectEnd()
        self.init(intent: intent, transferID: transferID, expiry: expiry, challenge: challenge,
                  senderPublicKey: publicKey, rendezvous: rendezvous)
    }
}

extension SessionPayload: CustomStringConvertible, CustomReflectable {
    /// Public session fields only; the challenge is left out so logs do not copy the QR secret.
    public var description: String {
        "SessionPayload(v\(version), \(intent), transfer \(transferID), expiry \(expiry))"
    }

    /// The same fields as ``description`` shows, so `dump` and debuggers do not copy the
    /// challenge either (nor does a `dump` of a session that holds this payload).
    public var customMirror: Mirror {
        Mirror(self, children: ["version": version, "intent": intent, "transferID": transferID, "expiry": expiry,
                                "senderPublicKey": senderPublicKey, "rendezvous": rendezvous],
               displayStyle: .struct)
    }
}
