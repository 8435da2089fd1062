import AccountHandoff

/// Builds and damages frame bytes by hand, the way an attacker on the wire would.
///
/// Test support only.
public enum FrameBytes {
    /// Offset of the type byte in a frame header.
    public static let typeOffset = 1
    /// Offset of the transfer ID.
    public static let transferIDOffset = 2
    /// Offset of the big-endian sequence number.
    public static let sequenceOffset = 18
    /// Offset of the big-endian body length.
    public static let lengthOffset = 22

    /// `version | type | transferID | sequence | bodyLength | body` with any field values,
    /// including ones the decoder must refuse. The length field is `body.count` truncated to 16 bits.
    public static func make(version: UInt8 = SessionPayload.currentVersion, type: UInt8, transferID: [UInt8],
                            sequence: UInt32, body: [UInt8]) -> [UInt8] {
        var bytes = [version, type] + transferID
        bytes += [UInt8(truncatingIfNeeded: sequence >> 24), UInt8(truncatingIfNeeded: sequence >> 16),
                  UInt8(truncatingIfNeeded: sequence >> 8), UInt8(truncatingIfNeeded: sequence)]
        bytes += [UInt8(truncatingIfNeeded: body.count >> 8), UInt8(truncatingIfNeeded: body.count)]
        return bytes + body
    }

    /// The body length a well-formed frame of `type` has (offers: the smallest one).
    public static func typicalBodyLength(_ type: MessageType) -> Int {
        switch type {
        case .hello: 64
        case .offer: 256 + 16
        case .credential: 1024 + 16
        case .accept, .receipt, .abort: 17
        case .reveal: 32 + 16
        case .pakeInit: 52
        case .pakeReply: 80
        case .pakeConfirm: 32
        case .pakeRefused: 0
        }
    }

    /// `bytes` with bit `bit` (0 = least significant bit of byte 0) inverted.
    public static func flippingBit(_ bytes: [UInt8], bit: Int) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var copy = bytes
        let position = bit % (bytes.count * 8)
        copy[position / 8] ^= UInt8(1) << UInt8(position % 8)
        return copy
    }

    /// The first `length` bytes.
    public static func truncated(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        Array(bytes.prefix(max(0, length)))
    }

    /// The message type named in a frame's header, if the byte is a defined type.
    public static func type(of bytes: [UInt8]) -> MessageType? {
        bytes.count > typeOffset ? MessageType(rawValue: bytes[typeOffset]) : nil
    }
}
