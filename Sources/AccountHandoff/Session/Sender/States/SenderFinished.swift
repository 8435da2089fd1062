/// Sender state `finished` (Spec 6.1): the outcome, and the code if one was shown; the
/// session's arena is wiped and given back (Spec 6.5, 8.5).
///
/// Accepts nothing: ``HandoffSender`` answers every event here before any row (Spec 6.0 step
/// 2): a frame is `ignored(sessionFinished)`; `tick`, `transportLost` and `cancel` give `[]`;
/// every other local event is refused with `sessionFinished`.
struct SenderFinished {
    let outcome: SenderOutcome
    let shortCode: ShortCode?
}
