/// Sender state `awaitingCodeConfirmation` (Spec 6.1): the reveal is sent and the code shown.
struct SenderAwaitingCodeConfirmation {
    let established: SenderEstablished

    /// Accepting the first hello: the nonce is revealed and wiped.
    init(previous: SenderAwaitingHello, established: SenderEstablished) {
        previous.nonce.wipe()
        self.established = established
    }
}
