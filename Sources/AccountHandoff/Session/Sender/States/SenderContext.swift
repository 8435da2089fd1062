/// What a sender session fixes at `start` and keeps until it ends: the QR, the account, the
/// initial transcript, the gate declaration the offer carries (Spec 3.4), and the secrets needed
/// to verify any hello (Spec 5.1): the private key and a guarded copy of the commitment, kept in
/// the session's arena.
struct SenderContext {
    let payload: SessionPayload
    let account: AccountMetadata
    let senderGate: GateDeclaration
    let initialTranscript: Transcript
    let keyPair: X25519KeyPair
    let commitment: SessionSecret
}
