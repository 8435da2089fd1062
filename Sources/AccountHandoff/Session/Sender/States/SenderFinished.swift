/// Sender state `finished` (Spec 6.1): the outcome, and the code if one was shown.
struct SenderFinished {
    let outcome: SenderOutcome
    let shortCode: ShortCode?
    /// Every secret the session owned, all wiped; kept only so tests can prove it.
    let wipedSecrets: [SecretBytes]
}
