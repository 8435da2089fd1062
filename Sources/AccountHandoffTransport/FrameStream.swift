import AccountHandoff

/// Length framing for handoff frames on a byte stream: each frame is sent as
/// `length(u16 big-endian) | frame bytes`, with 1 <= length <= ``AccountHandoff/Frame/maximumByteCount``.
public enum FrameStream {
    /// Bytes of the length prefix.
    public static let lengthPrefixByteCount = 2

    /// The wire form of one frame.
    ///
    /// - Throws: ``TransportError/emptyFrame`` or ``TransportError/oversizedFrame(_:)`` when
    ///   the frame is outside the cap, so a local bug cannot put a bad length on the wire.
    public static func encode(_ frame: [UInt8]) throws(TransportError) -> [UInt8] {
        guard !frame.isEmpty else { throw .emptyFrame }
        guard frame.count <= Frame.maximumByteCount else { throw .oversizedFrame(frame.count) }
        return [UInt8(frame.count >> 8), UInt8(truncatingIfNeeded: frame.count)] + frame
    }
}

/// Splits a byte stream into frames. Feed it whatever arrived; an announced length above the
/// cap fails at once, so a reader that appends no more than the decoder still needs (as
/// ``FrameListener`` does) never holds more than one frame plus its prefix.
public struct FrameStreamDecoder: Sendable {
    private var buffer: [UInt8] = []

    /// Creates an empty decoder.
    public init() {}

    /// Whether part of a frame is buffered.
    public var hasPartialFrame: Bool { !buffer.isEmpty }

    /// Bytes buffered: at most the length prefix plus one frame while the reader appends no
    /// more than ``bytesToCompleteFrame`` at a time.
    var bufferedByteCount: Int { buffer.count }

    /// How many more bytes complete the length prefix or, once a valid prefix is buffered, the
    /// frame it announces; always at least 1. Call ``nextFrame()`` after each append, so a bad
    /// prefix fails before this is asked again.
    var bytesToCompleteFrame: Int {
        guard buffer.count >= FrameStream.lengthPrefixByteCount else { return FrameStream.lengthPrefixByteCount - buffer.count }
        let announced = min(Int(buffer[0]) << 8 | Int(buffer[1]), Frame.maximumByteCount)
        return max(1, FrameStream.lengthPrefixByteCount + announced - buffer.count)
    }

    /// Appends received bytes.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or `nil` when more bytes are needed.
    ///
    /// - Throws: ``TransportError/oversizedFrame(_:)`` or ``TransportError/emptyFrame`` as soon
    ///   as a bad length prefix is seen; the stream cannot be resynchronised after that.
    public mutating func nextFrame() throws(TransportError) -> [UInt8]? {
        guard buffer.count >= FrameStream.lengthPrefixByteCount else { return nil }
        let length = Int(buffer[0]) << 8 | Int(buffer[1])
        guard length > 0 else { throw .emptyFrame }
        guard length <= Frame.maximumByteCount else { throw .oversizedFrame(length) }
        let end = FrameStream.lengthPrefixByteCount + length
        guard buffer.count >= end else { return nil }
        let frame = Array(buffer[FrameStream.lengthPrefixByteCount..<end])
        buffer.removeFirst(end)
        return frame
    }
}
