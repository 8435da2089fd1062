import AccountHandoff

/// Package-only entry points that let fuzzers and adversarial tests reach the parsers that
/// sit behind authentication: they play an authenticated but malicious peer that seals
/// arbitrary plaintexts with a session's real keys, through the channel a session holds.
extension HandoffSender {
    /// Seals `plaintext` as this sender's next frame of `type`, as a malicious sender holding
    /// the session keys could; `linkID` is bound into account frames.
    ///
    /// - Returns: the frame bytes, or `nil` before a hello was accepted, after the end, or for
    ///   a hello (which is not sealed).
    package func sealForgedFrame(_ type: MessageType, plaintext: [UInt8], linkID: AccountLinkID?) -> [UInt8]? {
        guard let channel = currentChannel else { return nil }
        return ForgedFrames.seal(type, plaintext: plaintext, channel: channel, linkID: linkID)
    }
}

extension HandoffReceiver {
    /// Seals `plaintext` as this receiver's next frame of `type`, as a malicious receiver
    /// holding the session keys could; `linkID` is bound into account frames.
    ///
    /// - Returns: the frame bytes, or `nil` after the end or for a hello.
    package func sealForgedFrame(_ type: MessageType, plaintext: [UInt8], linkID: AccountLinkID?) -> [UInt8]? {
        guard let channel = currentChannel else { return nil }
        return ForgedFrames.seal(type, plaintext: plaintext, channel: channel, linkID: linkID)
    }
}

private enum ForgedFrames {
    static func seal(_ type: MessageType, plaintext: [UInt8], channel: SecureChannel, linkID: AccountLinkID?) -> [UInt8]? {
        guard type != .hello, plaintext.count <= Frame.maximumByteCount - Frame.headerByteCount - ChaCha20Poly1305.tagByteCount else {
            return nil
        }
        return plaintext.withUnsafeBytes { channel.seal(type, plaintext: $0, account: linkID) }
    }
}
