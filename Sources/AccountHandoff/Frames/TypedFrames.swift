/// The typed way's frames (Spec 3.8): their bodies, built and read strictly. Every one is
/// plaintext; `pakeConfirm`'s body is a MAC and `pakeRefused` is empty.
///
/// ```
/// pakeInit    body = expiry u32 | sid[16] | Ya[32]        52 bytes, sender to receiver, s2r sequence 0
/// pakeReply   body = sid[16] | Yb[32] | tagR[32]          80 bytes, receiver to sender, r2s sequence 0
/// pakeConfirm body = tagS[32]                              32 bytes, sender to receiver, s2r sequence 1
/// pakeRefused body = empty                                  0 bytes, sender to receiver, s2r sequence 1
/// ```
package enum TypedFrames {
    /// Bytes of a run's `sid` (Spec 12.7).
    package static let sessionIDByteCount = 16
    /// Bytes of a confirmation tag (HMAC-SHA256).
    package static let tagByteCount = HMACSHA256.byteCount
    /// `expiry u32 | sid[16] | Ya[32]`.
    static let pakeInitBodyByteCount = 4 + sessionIDByteCount + CPaceShare.byteCount
    /// `sid[16] | Yb[32] | tagR[32]`.
    static let pakeReplyBodyByteCount = sessionIDByteCount + CPaceShare.byteCount + tagByteCount
    /// The sequence number of `pakeInit` (s2r) and of `pakeReply` (r2s).
    package static let handshakeSequence: UInt32 = 0
    /// The sequence number of `pakeConfirm` and of `pakeRefused` (s2r).
    package static let confirmSequence: UInt32 = 1

    /// The fields of a `pakeInit` body.
    package struct PakeInit: Sendable {
        /// The sending session's expiry (Unix seconds).
        package let expiry: UInt32
        /// The run's `sid`.
        package let sessionID: [UInt8]
        /// The sender's share `Ya`.
        package let share: CPaceShare
    }

    /// The fields of a `pakeReply` body.
    package struct PakeReply: Sendable {
        /// The run's `sid`, echoed.
        package let sessionID: [UInt8]
        /// The receiver's share `Yb`.
        package let share: CPaceShare
        /// `tagR`.
        package let tag: [UInt8]
    }

    /// The `pakeInit` frame of a run.
    package static func pakeInit(transferID: TransferID, expiry: UInt32, sessionID: [UInt8], share: CPaceShare) -> [UInt8] {
        precondition(sessionID.count == sessionIDByteCount, "a 16-byte sid")
        return Frame(type: .pakeInit, transferID: transferID, sequence: handshakeSequence,
                     body: bigEndian(expiry) + sessionID + share.bytes).bytes
    }

    /// The `pakeReply` frame of a run; `tag` is read where it lies (guarded memory).
    package static func pakeReply(transferID: TransferID, sessionID: [UInt8], share: CPaceShare,
                                  tag: UnsafeRawBufferPointer) -> [UInt8] {
        Frame.wire(type: .pakeReply, transferID: transferID, sequence: handshakeSequence,
                   bodyLength: pakeReplyBodyByteCount) { _, body in
            var writer = BufferWriter(body)
            writer.write(sessionID)
            writer.write(share.bytes)
            writer.write(tag)
        }
    }

    /// The `pakeConfirm` frame; `tag` is read where it lies.
    package static func pakeConfirm(transferID: TransferID, tag: UnsafeRawBufferPointer) -> [UInt8] {
        Frame.wire(type: .pakeConfirm, transferID: transferID, sequence: confirmSequence, bodyLength: tagByteCount) { _, body in
            var writer = BufferWriter(body)
            writer.write(tag)
        }
    }

    /// The `pakeRefused` frame.
    package static func pakeRefused(transferID: TransferID) -> [UInt8] {
        Frame(type: .pakeRefused, transferID: transferID, sequence: confirmSequence, body: []).bytes
    }

    /// The fields of a decoded `pakeInit` (the decoder fixed its body at 52 bytes).
    static func readPakeInit(_ frame: Frame) -> PakeInit {
        let body = Array(frame.bodyBytes)
        let expiry = body[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return PakeInit(expiry: expiry, sessionID: Array(body[4..<20]), share: CPaceShare(bytes: Array(body[20..<52]))!)
    }

    /// The fields of a decoded `pakeReply` (the decoder fixed its body at 80 bytes).
    static func readPakeReply(_ frame: Frame) -> PakeReply {
        let body = Array(frame.bodyBytes)
        return PakeReply(sessionID: Array(body[0..<16]), share: CPaceShare(bytes: Array(body[16..<48]))!,
                         tag: Array(body[48..<80]))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }
}
