/// What a sender session fixes at `start` and keeps until it ends: the QR, the account, the
/// initial transcript, and the secrets needed to verify any hello (Spec 5.1): the private key
/// and a guarded copy of the commitment.
struct SenderContext {
    let payload: SessionPayload
    let account: AccountMetadata
    let initialTranscript: Transcript
    let keyPair: X25519KeyPair
    let commitment: SecretBytes

    /// The hello-verifying secrets, for wiping and memory-cleanup checks.
    var secrets: [SecretBytes] { [keyPair.privateKey, commitment] }

    /// The hello-verifying secrets and the nonce, in one array.
    func secrets(with nonce: SecretBytes) -> [SecretBytes] { [keyPair.privateKey, commitment, nonce] }

    /// The hello-verifying secrets and the session keys (if any), in one array.
    func secrets(with keys: SessionKeys?) -> [SecretBytes] {
        guard let keys else { return secrets }
        return [keyPair.privateKey, commitment, keys.helloKey, keys.senderToReceiver, keys.receiverToSender, keys.codeKey]
    }

    /// Wipes the private key and the commitment copy.
    func wipe() {
        keyPair.wipe()
        commitment.wipe()
    }
}
