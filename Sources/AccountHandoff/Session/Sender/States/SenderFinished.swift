/// Sender state `finished` (Spec 6.1): the outcome, and the code if one was shown; every secret
/// is wiped (Spec 6.5).
///
/// Accepts nothing: ``HandoffSender`` answers every event here before any row (Spec 6.0 step
/// 2): a frame is `ignored(sessionFinished)`; `tick`, `transportLost` and `cancel` give `[]`;
/// every other local event is refused with `sessionFinished`.
struct SenderFinished {
    let outcome: SenderOutcome
    let shortCode: ShortCode?
    /// The nonce, when the session ended before a hello was accepted, and the accepted
    /// receiver's channel, if any: with the context's secrets, every secret the session owned,
    /// all wiped; kept only so tests can prove it.
    let wipedNonce: SecretBytes?
    let wipedChannel: SecureChannel?
}
