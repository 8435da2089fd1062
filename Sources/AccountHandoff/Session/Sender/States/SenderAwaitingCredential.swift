/// Sender state `awaitingCredential` (Spec 6.1): both people confirmed; the app re-authenticates.
struct SenderAwaitingCredential {
    let established: SenderEstablished

    init(previous: SenderAwaitingAccept) {
        established = previous.established
    }
}
