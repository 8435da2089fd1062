/// Receiver state `awaitingImportResult` (Spec 6.2): the account is the app's; it never expires.
struct ReceiverAwaitingImportResult {
    let channel: SecureChannel
    let shortCode: ShortCode
    let account: AccountMetadata
    /// Whether the transport was reported lost meanwhile (the receipt then will not arrive).
    var transportLost = false

    init(previous: ReceiverAwaitingCredentialFrame) {
        channel = previous.channel
        shortCode = previous.shortCode
        account = previous.account
    }
}
