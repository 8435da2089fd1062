import AccountHandoff

/// Package-only views of a live session for vectors and tests: the running transcript hash
/// (Spec 4.1). Nothing secret.
extension HandoffSender {
    /// This side's current transcript hash `TH`, once a hello was accepted.
    package var transcriptHash: [UInt8]? { currentChannel?.transcript.hash }
}

extension HandoffReceiver {
    /// This side's current transcript hash `TH`, until the session ends.
    package var transcriptHash: [UInt8]? { currentChannel?.transcript.hash }
}
