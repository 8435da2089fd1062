/// Receiver state `reviewingOffer` (Spec 6.2): the account and the code are shown.
struct ReceiverReviewingOffer {
    let channel: SecureChannel
    let shortCode: ShortCode
    let account: AccountMetadata

    init(previous: ReceiverAwaitingOffer, account: AccountMetadata) {
        channel = previous.channel
        shortCode = previous.shortCode
        self.account = account
    }
}
