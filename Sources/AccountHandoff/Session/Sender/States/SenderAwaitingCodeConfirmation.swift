/// Sender state `awaitingCodeConfirmation` (Spec 6.1): the reveal is sent; the person types
/// the code the receiving device shows.
struct SenderAwaitingCodeConfirmation {
    let established: SenderEstablished
    /// Six-digit entries that may still be typed before a mismatch ends the session (Spec 4.4).
    private(set) var remainingEntries = HandoffSender.maximumCodeEntries

    /// Accepting the first hello: the nonce is revealed and wiped.
    init(previous: SenderAwaitingHello, established: SenderEstablished) {
        previous.nonce.wipe()
        self.established = established
    }

    /// One six-digit entry did not match.
    mutating func noteMismatch() { remainingEntries -= 1 }
}
