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

    /// The channel, once a hello was accepted and until the session ends.
    var channel: SecureChannel? {
        switch self {
        case .awaitingHello, .finished: nil
        case .awaitingCodeConfirmation(let state): state.established.channel
        case .awaitingAccept(let state): state.established.channel
        case .awaitingCredential(let state): state.established.channel
        case .awaitingReceipt(let state): state.established.channel
        }
    }

    /// The code the person must type, once a hello was accepted (the finished state keeps it);
    /// read in place, without copying the state.
    var shortCode: ShortCode? {
        switch self {
        case .awaitingHello: nil
        case .awaitingCodeConfirmation(let state): state.established.shortCode
        case .awaitingAccept(let state): state.established.shortCode
        case .awaitingCredential(let state): state.established.shortCode
        case .awaitingReceipt(let state): state.established.shortCode
        case .finished(let state): state.shortCode
        }
    }
}
