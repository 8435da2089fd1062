import Foundation

/// Everything the QR code carries, and nothing else (Spec section 2).
///
/// Its stored properties are fixed-size session fields plus a rendezvous token capped at
/// 32 bytes; there is no field, extension point or free-form data that could hold account
/// metadata, a credential or ciphertext, and ``text`` is built only from these fields.
public struct SessionPayload: Hashable, Sendable {
    /// The protocol version this library speaks.
    public static let currentVersion: UInt8 = 4
    /// The QR text prefix, a URI scheme in QR alphanumeric characters.
    public static let textPrefix = "AH:"
    /// Length of the commitment (the QR secret) in bytes.
    public static let commitmentByteCount = 32
    /// Length of the binary form without the rendezvous token bytes.
    public static let fixedByteCount = 1 + 1 + 4 + commitmentByteCount + X25519PublicKey.byteCount + 1
    /// Longest binary form.
    public static let maximumByteCount = fixedByteCount + RendezvousToken.maximumByteCount
    /// Longest text form; longer input is refused before any parsing.
    public static let maximumTextLength = textPrefix.utf8.count + 17 * (maximumByteCount / 7) + DecimalChunks.digitsPerByteCount[maximumByteCount % 7]

    /// Protocol version (always ``currentVersion`` once decoded).
    public let version: UInt8
    /// What the scanning device is asked to do.
    public let intent: TransferIntent
    /// Expiry as Unix seconds; the sender enforces it, the receiver checks it with skew tolerance.
    public let expiry: UInt32
    /// The sender's commitment to its nonce, and the QR secret: it proves to the sender that a
    /// receiver saw the QR. 32 bytes, copied out of ``binary``. Left out of ``description`` and
    /// reflection.
    public var commitment: [UInt8] { Array(commitmentBytes) }
    /// The commitment where it lies in ``binary``, not copied.
    var commitmentBytes: ArraySlice<UInt8> { binary[Self.commitmentOffset..<Self.commitmentOffset + Self.commitmentByteCount] }
    /// Where the commitment starts in the binary form: after version, intent and expiry.
    private static let commitmentOffset = 1 + 1 + 4
    /// The sender's ephemeral X25519 public key.
    public let senderPublicKey: X25519PublicKey
    /// Where the receiver connects.
    public let rendezvous: RendezvousToken
    /// The transfer's identifier, derived from the QR bytes (Spec 2.1).
    public let transferID: TransferID
    /// The binary form (Spec 2.2): version, intent, expiry, commitment, sender public key,
    /// rendezvous length, rendezvous bytes. The transcript and the transfer ID hash these bytes.
    public let binary: [UInt8]

    /// The expiry as a `Date`.
    public var expiryDate: Date { Date(timeIntervalSince1970: TimeInterval(expiry)) }

    package init(intent: TransferIntent, expiry: UInt32, commitment: [UInt8], senderPublicKey: X25519PublicKey,
         rendezvous: RendezvousToken) {
        self = commitment.withUnsafeBytes {
            Self(intent: intent, expiry: expiry, commitment: $0, senderPublicKey: senderPublicKey, rendezvous: rendezvous)
        }
    }

    /// The sender's payload, with the commitment written straight from its digest.
    init(intent: TransferIntent, expiry: UInt32, commitment: SHA256.Digest, senderPublicKey: X25519PublicKey,
         rendezvous: RendezvousToken) {
        self = commitment.withUnsafeBytes {
            Self(intent: intent, expiry: expiry, commitment: $0, senderPublicKey: senderPublicKey, rendezvous: rendezvous)
        }
    }

    /// The binary form (Spec 2.2) written into its one array.
    private init(intent: TransferIntent, expiry: UInt32, commitment: UnsafeRawBufferPointer,
                 senderPublicKey: X25519PublicKey, rendezvous: RendezvousToken) {
        precondition(commitment.count == Self.commitmentByteCount, "commitment size")
        let binary = [UInt8](unsafeUninitializedCapacity: Self.fixedByteCount + rendezvous.bytes.count) { buffer, initialized in
            var writer = BufferWriter(UnsafeMutableRawBufferPointer(buffer))
            writer.write(Self.currentVersion)
            writer.write(intent.rawValue)
            writer.write(expiry)
            writer.write(commitment)
            senderPublicKey.withUnsafeBytes { writer.write($0) }
            writer.write(UInt8(rendezvous.bytes.count))
            writer.write(rendezvous.bytes)
            initialized = writer.count
        }
        self.init(intent: intent, expiry: expiry, senderPublicKey: senderPublicKey, rendezvous: rendezvous, binary: binary)
    }

    /// The fields and their binary form, which must encode exactly these fields (the
    /// commitment is read from it).
    private init(intent: TransferIntent, expiry: UInt32, senderPublicKey: X25519PublicKey,
                 rendezvous: RendezvousToken, binary: [UInt8]) {
        self.version = Self.currentVersion
        self.intent = intent
        self.expiry = expiry
        self.senderPublicKey = senderPublicKey
        self.rendezvous = rendezvous
        self.binary = binary
        self.transferID = TransferID(qrBinary: binary)
    }

    /// The QR text (Spec 2.3): `AH:` followed by the binary form in decimal groups.
    public var text: String { DecimalChunks.encode(binary, prefixedWith: Self.textPrefix) }

    /// Decodes and strictly validates a QR text (Spec 2.4). Does not check the expiry against a
    /// clock; ``HandoffReceiver`` does that when the session starts.
    ///
    /// - Throws: ``HandoffError/malformed(_:)`` (`length`, `digits`, a truncated field,
    ///   `trailingBytes`), ``HandoffError/badMagic``, ``HandoffError/nonCanonicalEncoding``,
    ///   ``HandoffError/unsupportedVersion(_:)``, ``HandoffError/wrongIntent(_:)``,
    ///   ``HandoffError/rendezvousTooLong(_:)``.
    public init(text: String) throws(HandoffError) {
        guard text.utf8.count <= Self.maximumTextLength else { throw .malformed(.length) }
        var text = text
        let binary = text.withUTF8 { utf8 -> Result<[UInt8], HandoffError> in
            guard utf8.starts(with: Self.textPrefix.utf8) else { return .failure(.badMagic) }
            return Result { () throws(HandoffError) in try DecimalChunks.decode(digits: utf8[Self.textPrefix.utf8.count...]) }
        }
        try self.init(binary: binary.get())
    }

    /// Decodes and strictly validates the binary form (Spec 2.4, B1-B12).
    ///
    /// - Throws: the same errors as ``init(text:)`` except the text-level ones.
    public init(binary: [UInt8]) throws(HandoffError) {
        guard binary.count <= Self.maximumByteCount else { throw .malformed(.length) }
        var reader = ByteReader(binary)
        let version = try reader.readUInt8(.version)
        guard version == Self.currentVersion else { throw .unsupportedVersion(version) }
        let rawIntent = try reader.readUInt8(.intent)
        guard let intent = TransferIntent(rawValue: rawIntent) else { throw .wrongIntent(rawIntent) }
        let expiry = try reader.readUInt32(.expiry)
        try reader.skip(count: Self.commitmentByteCount, .commitment)
        let publicKey = try reader.readSlice(count: X25519PublicKey.byteCount, .publicKey).withUnsafeBytes {
            X25519PublicKey(copying: $0)
        }
        let rendezvousLength = Int(try reader.readUInt8(.rendezvous))
        guard rendezvousLength <= RendezvousToken.maximumByteCount else { throw .rendezvousTooLong(rendezvousLength) }
        let rendezvous = try RendezvousToken(bytes: reader.read(count: rendezvousLength, .rendezvous))
        try reader.expectEnd()
        // The strict decoder accepts only the bytes these fields encode to: they are the binary form.
        self.init(intent: intent, expiry: expiry, senderPublicKey: publicKey, rendezvous: rendezvous, binary: binary)
    }
}

extension SessionPayload: CustomStringConvertible, CustomReflectable {
    /// Public session fields only; the commitment is left out so logs do not copy the QR secret.
    public var description: String {
        "SessionPayload(v\(version), \(intent), transfer \(transferID), expiry \(expiry))"
    }

    /// The same fields as ``description`` shows, so `dump` and debuggers do not copy the
    /// commitment either (nor does a `dump` of a session that holds this payload).
    public var customMirror: Mirror {
        Mirror(self, children: ["version": version, "intent": intent, "transferID": transferID, "expiry": expiry,
                                "senderPublicKey": senderPublicKey, "rendezvous": rendezvous],
               displayStyle: .struct)
    }
}
