/// Receiver state `finished` (Spec 6.2): the outcome, and the code if one was shown.
struct ReceiverFinished {
    let outcome: ReceiverOutcome
    let shortCode: ShortCode?
    let account: AccountMetadata?
    /// Every secret the session owned, all wiped; kept only so tests can prove it.
    let wipedSecrets: [SecretBytes]
}
