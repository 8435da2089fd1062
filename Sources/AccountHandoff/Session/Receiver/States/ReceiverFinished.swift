/// Receiver state `finished` (Spec 6.2): the outcome, and the code and account if they were
/// shown; every secret is wiped (Spec 6.5).
///
/// Accepts nothing: ``HandoffReceiver`` answers every event here before any row (Spec 6.0 step
/// 2): a frame is `ignored(sessionFinished)`; `tick`, `transportLost` and `cancel` give `[]`;
/// every other local event is refused with `sessionFinished`.
struct ReceiverFinished {
    let outcome: ReceiverOutcome
    let shortCode: ShortCode?
    let account: ReceivedAccount?
}
