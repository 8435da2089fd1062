/// Test-only entry points that let fuzzers and adversarial tests reach the parsers that sit
/// behind authentication: they play an authenticated but malicious peer that seals
/// arbitrary plaintexts with a session's real keys.
///
/// - Warning: `@_spi(Testing)` only. Nothing in an app has a reason to call these; they
///   exist so that the receiver's offer and credential decoders, and the sender's receipt
///   and abort decoders, can be fuzzed through the real state machines.
extension HandoffSender {
    /// Seals `plaintext` as this sender's next frame of `type`, as a malicious sender holding
    /// the session keys could. `linkID` replaces the bound account link ID when given.
    ///
    /// - Returns: the frame bytes, or `nil` before a hello was accepted, after the end, or
    ///   for a hello (which is not sealed).
    @_spi(Testing) public func sealForgedFrame(_ type: MessageType, plaintext: [UInt8], linkID: AccountLinkID? = nil) -> [UInt8]? {
        guard let channel, state != .finished else { return nil }
        return ForgedFrames.seal(type, plaintext: plaintext, channel: channel, linkID: linkID ?? channel.linkID ?? account.linkID)
    }
}

extension HandoffReceiver {
    /// Seals `plaintext` as this receiver's next frame of `type`, as a malicious receiver
    /// holding the session keys could. `linkID` replaces the bound account link ID when given.
    ///
    /// - Returns: the frame bytes, or `nil` after the end or for a hello.
    @_spi(Testing) public func sealForgedFrame(_ type: MessageType, plaintext: [UInt8], linkID: AccountLinkID? = nil) -> [UInt8]? {
        guard state != .finished else { return nil }
        let fallback = AccountLinkID(bytes: [UInt8](repeating: 0, count: AccountLinkID.byteCount))!
        return ForgedFrames.seal(type, plaintext: plaintext, channel: channel, linkID: linkID ?? channel.linkID ?? fallback)
    }
}

/// The offer plaintext codec (Spec 3.4), exposed so its strictness can be fuzzed directly.
@_spi(Testing) public enum OfferPlaintextCodec {
    /// The padded offer plaintext for `account`.
    public static func encode(_ account: AccountMetadata) -> [UInt8] { AccountMetadataCodec.encode(account) }

    /// Strictly decodes an offer plaintext.
    ///
    /// - Throws: the same errors as the receiver's offer handling.
    public static func decode(_ plaintext: [UInt8]) throws(HandoffError) -> AccountMetadata {
        try AccountMetadataCodec.decode(plaintext)
    }
}

private enum ForgedFrames {
    static func seal(_ type: MessageType, plaintext: [UInt8], channel: SecureChannel, linkID: AccountLinkID) -> [UInt8]? {
        guard type != .hello, plaintext.count <= Frame.maximumByteCount - Frame.headerByteCount - ChaCha20Poly1305.tagByteCount else { return nil }
        channel.linkID = linkID
        let secret = SecretBytes(copying: plaintext)
        defer { secret.wipe() }
        return channel.seal(type, plaintext: secret)
    }
}
