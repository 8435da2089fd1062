/// One wire message (Spec section 3.1), version 2:
/// `version(1) | type(1) | transferID(16) | sequence(4, BE) | bodyLength(2, BE) | body`.
///
/// Frames are transport-agnostic; a transport only has to deliver whole frames in order.
public struct Frame: Hashable, Sendable {
    /// Header length in bytes.
    public static let headerByteCount = 24
    /// Hard cap on a whole frame; larger input is refused before parsing.
    public static let maximumByteCount = 4096

    /// The message type.
    public let type: MessageType
    /// The transfer this frame belongs to.
    public let transferID: TransferID
    /// Per-direction sequence number, starting at 0; also the AEAD nonce.
    public let sequence: UInt32
    /// The body: hello fields, or AEAD ciphertext with tag.
    public let body: [UInt8]

    /// Builds a frame; the body must fit the type's length rules.
    init(type: MessageType, transferID: TransferID, sequence: UInt32, body: [UInt8]) {
        self.type = type
        self.transferID = transferID
        self.sequence = sequence
        self.body = body
    }

    /// The header bytes, which are also the start of every AEAD additional data.
    public var header: [UInt8] {
        Self.header(type: type, transferID: transferID, sequence: sequence, bodyLength: body.count)
    }

    /// The full wire bytes.
    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: Self.headerByteCount + body.count)
        Self.writeHeader(&writer, type: type, transferID: transferID, sequence: sequence, bodyLength: body.count)
        writer.write(body)
        return writer.bytes
    }

    /// The header of a frame with these fields and a body of `bodyLength` bytes, for a frame
    /// whose body is not made yet (an AEAD body is sealed with its header as part of the AD).
    static func header(type: MessageType, transferID: TransferID, sequence: UInt32, bodyLength: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: headerByteCount)
        writeHeader(&writer, type: type, transferID: transferID, sequence: sequence, bodyLength: bodyLength)
        return writer.bytes
    }

    private static func writeHeader(_ writer: inout ByteWriter, type: MessageType, transferID: TransferID,
                                    sequence: UInt32, bodyLength: Int) {
        writer.write(SessionPayload.currentVersion)
        writer.write(type.rawValue)
        writer.write(transferID.bytes)
        writer.write(sequence)
        writer.write(UInt16(bodyLength))
    }

    /// Strictly decodes one frame.
    ///
    /// - Throws: ``HandoffError/oversizedFrame(_:)``, ``HandoffError/malformed(_:)``
    ///   (`frameHeader`, `frameLength`, `body`, `trailingBytes`),
    ///   ``HandoffError/unsupportedVersion(_:)``, ``HandoffError/unknownMessageType(_:)``.
    public init(bytes: [UInt8]) throws(HandoffError) {
        guard bytes.count <= Self.maximumByteCount else { throw .oversizedFrame(bytes.count) }
        guard bytes.count >= Self.headerByteCount else { throw .malformed(.frameHeader) }
        var reader = ByteReader(bytes)
        let version = try reader.readUInt8(.frameHeader)
        guard version == SessionPayload.currentVersion else { throw .unsupportedVersion(version) }
        let rawType = try reader.readUInt8(.frameHeader)
        guard let type = MessageType(rawValue: rawType) else { throw .unknownMessageType(rawType) }
        let transferID = TransferID(bytes: try reader.read(count: TransferID.byteCount, .frameHeader))!
        let sequence = try reader.readUInt32(.frameHeader)
        let bodyLength = Int(try reader.readUInt16(.frameHeader))
        guard bodyLength <= reader.remaining else { throw .malformed(.frameLength) }
        let body = try reader.read(count: bodyLength, .body)
        try reader.expectEnd()
        guard Self.isValidBodyLength(bodyLength, for: type) else { throw .malformed(.body) }
        self.init(type: type, transferID: transferID, sequence: sequence, body: body)
    }

    /// Whether `length` is a legal body length for `type` (Spec 3.2).
    static func isValidBodyLength(_ length: Int, for type: MessageType) -> Bool {
        if let fixed = type.fixedBodyLength { return length == fixed }
        let plaintext = length - ChaCha20Poly1305.tagByteCount
        return plaintext >= AccountMetadataCodec.blockByteCount && plaintext % AccountMetadataCodec.blockByteCount == 0
    }
}
