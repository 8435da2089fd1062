/// Receiver state `awaitingReveal` (Spec 6.2): the hello is sent; no code exists yet.
struct ReceiverAwaitingReveal {
    let channel: SecureChannel
}
