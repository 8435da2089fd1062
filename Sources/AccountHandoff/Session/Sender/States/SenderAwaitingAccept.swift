/// Sender state `awaitingAccept` (Spec 6.1): the offer is sent.
struct SenderAwaitingAccept {
    let established: SenderEstablished

    init(previous: SenderAwaitingCodeConfirmation) {
        established = previous.established
    }
}
