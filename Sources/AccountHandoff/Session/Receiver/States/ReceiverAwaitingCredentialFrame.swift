/// Receiver state `awaitingCredentialFrame` (Spec 6.2): the accept is sent.
struct ReceiverAwaitingCredentialFrame {
    let channel: SecureChannel
    let shortCode: ShortCode
    let account: AccountMetadata

    init(previous: ReceiverReviewingOffer) {
        channel = previous.channel
        shortCode = previous.shortCode
        account = previous.account
    }
}
