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
    /// The full wire bytes: the header, then the body. A decoded frame keeps the very array
    /// it was decoded from (the strict decoder accepts only bytes that re-encode to themselves).
    public let bytes: [UInt8]

    /// The body: hello fields, or AEAD ciphertext with tag.
    public var body: [UInt8] { Array(bodyBytes) }

    /// The body, without copying it out of ``bytes``.
    var bodyBytes: ArraySlice<UInt8> { bytes[Self.headerByteCount...] }

    /// Builds a frame; the body must fit the type's length rules.
    package init(type: MessageType, transferID: TransferID, sequence: UInt32, body: [UInt8]) {
        self.init(type: type, transferID: transferID, sequence: sequence, bytes: Self.wire(
            type: type, transferID: transferID, sequence: sequence, bodyLength: body.count) { _, out in
            body.withUnsafeBytes { out.copyMemory(from: $0) }
        })
    }

    private init(type: MessageType, transferID: TransferID, sequence: UInt32, bytes: [UInt8]) {
        self.type = type
        self.transferID = transferID
        self.sequence = sequence
        self.bytes = bytes
    }

    /// The header bytes, which are also the start of every AEAD additional data.
    public var header: [UInt8] { Array(bytes[..<Self.headerByteCount]) }

    /// The wire bytes of a frame with these fields and a body of `bodyLength` bytes, in one
    /// array: the header is written first, then `writeBody` fills the body given the header
    /// (an AEAD body is sealed with its header as part of the AD).
    static func wire(type: MessageType, transferID: TransferID, sequence: UInt32, bodyLength: Int,
                     writeBody: (_ header: UnsafeRawBufferPointer, _ body: UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: headerByteCount + bodyLength) { buffer, initialized in
            let all = UnsafeMutableRawBufferPointer(buffer)
            var writer = BufferWriter(UnsafeMutableRawBufferPointer(rebasing: all[..<headerByteCount]))
            writer.write(SessionPayload.currentVersion)
            writer.write(type.rawValue)
            transferID.withUnsafeBytes { writer.write($0) }
            writer.write(sequence)
            writer.write(UInt16(bodyLength))
            writeBody(writer.written, UnsafeMutableRawBufferPointer(rebasing: all[headerByteCount...]))
            initialized = all.count
        }
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
        let transferID = try reader.readTransferID(.frameHeader)
        let sequence = try reader.readUInt32(.frameHeader)
        let bodyLength = Int(try reader.readUInt16(.frameHeader))
        guard bodyLength <= reader.remaining else { throw .malformed(.frameLength) }
        try reader.skip(count: bodyLength, .body)
        try reader.expectEnd()
        guard Self.isValidBodyLength(bodyLength, for: type) else { throw .malformed(.body) }
        self.init(type: type, transferID: transferID, sequence: sequence, bytes: bytes)
    }

    /// Whether `length` is a legal body length for `type` (Spec 3.2).
    static func isValidBodyLength(_ length: Int, for type: MessageType) -> Bool {
        if let fixed = type.fixedBodyLength { return length == fixed }
        let plaintext = length - ChaCha20Poly1305.tagByteCount
        return plaintext >= AccountMetadataCodec.blockByteCount && plaintext % AccountMetadataCodec.blockByteCount == 0
    }
}
