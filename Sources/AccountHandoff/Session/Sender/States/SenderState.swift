/// The sender's state: one case per phase of Spec 6.1, each with the data it owns. Each
/// state's file holds the transitions it accepts; ``HandoffSender`` dispatches to them.
enum SenderState {
    case awaitingHello(SenderAwaitingHello)
    case awaitingCodeConfirmation(SenderAwaitingCodeConfirmation)
    case awaitingAccept(SenderAwaitingAccept)
    case awaitingCredential(SenderAwaitingCredential)
    case awaitingReceipt(SenderAwaitingReceipt)
    case finished(SenderFinished)

    var phase: SenderPhase {
        switch self {
        case .awaitingHello: .awaitingHello
        case .awaitingCodeConfirmation: .awaitingCodeConfirmation
        case .awaitingAccept: .awaitingAccept
        case .awaitingCredential: .awaitingCredential
        case .awaitingReceipt: .awaitingReceipt
        case .finished: .finished
        }
    }

    /// The channel and code, once a hello was accepted and until the session ends.
    var established: SenderEstablished? {
        switch self {
        case .awaitingHello, .finished: nil
        case .awaitingCodeConfirmation(let state): state.established
        case .awaitingAccept(let state): state.established
        case .awaitingCredential(let state): state.established
        case .awaitingReceipt(let state): state.established
        }
    }
}
