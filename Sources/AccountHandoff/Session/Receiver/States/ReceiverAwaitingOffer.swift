/// Receiver state `awaitingOffer` (Spec 6.2): the reveal opened the commitment; the code is shown.
struct ReceiverAwaitingOffer {
    let channel: SecureChannel
    let shortCode: ShortCode

    init(previous: ReceiverAwaitingReveal, shortCode: ShortCode) {
        channel = previous.channel
        self.shortCode = shortCode
    }
}
