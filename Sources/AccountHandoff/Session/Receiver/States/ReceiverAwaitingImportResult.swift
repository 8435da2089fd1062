/// Receiver state `awaitingImportResult` (Spec 6.2, the `awaitingImportResult` rows of both
/// tables): the account is the app's. It never expires (Spec 6.0 step 3): only the app's import
/// result ends it.
///
/// Accepts, after the steps of Spec 6.0:
/// - `importFinished(status)`: seals the receipt, ends `completed.<status>`;
/// - `transportLost`: noted, nothing else (the receipt will not arrive; the import still
///   decides the outcome); `tick` changes nothing.
///
/// Refuses every frame: E3 admits none here, an abort included (Spec 5.3:
/// `ignored(unexpectedMessage)`, after `replayed` or `outOfOrder`), and `accept`,
/// `reject`, `cancel` (the import is the app's), `storeUnavailable` and
/// `notAuthenticated` (`invalidEvent`, thrown by ``HandoffReceiver``).
struct ReceiverAwaitingImportResult {
    /// What E3 admits here (Spec 5.3): nothing.
    static let expectation = SecureChannel.Expectation.nothing

    let channel: SecureChannel
    let shortCode: ShortCode?
    let account: ReceivedAccount
    /// Whether the transport was reported lost meanwhile (the receipt then will not arrive).
    private(set) var transportWasLost = false

    init(previous: consuming ReceiverAwaitingCredentialFrame) {
        channel = previous.channel
        shortCode = previous.shortCode
        account = previous.account
    }

    /// `importFinished(status)`: the receipt binds the account's link ID and ends the session,
    /// so the channel's transcript is not extended (Spec 3.6).
    func importFinished(_ status: ReceiptStatus) -> ReceiverTransition {
        let frame = withUnsafeBytes(of: status.rawValue) {
            channel.seal(.receipt, plaintext: $0, account: account.metadata.linkID, endsSession: true)
        }
        return .finish(.completed(status), sending: frame)
    }

    /// `transportLost`: the session goes on until the app reports its import (Spec 6.2).
    func transportLost() -> ReceiverTransition {
        var next = self
        next.transportWasLost = true
        return .next(.awaitingImportResult(next), [])
    }

    /// E3 admits nothing here, so no frame reaches this (Spec 5.3).
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer) -> ReceiverTransition {
        .ignore(.unexpectedMessage(type, in: .receiver(.awaitingImportResult)))
    }
}
