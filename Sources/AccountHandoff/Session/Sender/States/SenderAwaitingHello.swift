/// Sender state `awaitingHello` (Spec 6.1): the QR is shown; the nonce is still secret.
struct SenderAwaitingHello {
    /// The nonce the QR's commitment binds; revealed once a hello authenticates.
    let nonce: SecretBytes
}
