/// The receiver's state: one case per phase of Spec 6.2, each with the data it owns. Each
/// state's file holds the transitions it accepts; ``HandoffReceiver`` dispatches to them.
enum ReceiverState {
    case awaitingPakeInit(ReceiverAwaitingPakeInit)
    case awaitingPakeConfirm(ReceiverAwaitingPakeConfirm)
    case awaitingReveal(ReceiverAwaitingReveal)
    case awaitingOffer(ReceiverAwaitingOffer)
    case reviewingOffer(ReceiverReviewingOffer)
    case awaitingCredentialFrame(ReceiverAwaitingCredentialFrame)
    case awaitingImportResult(ReceiverAwaitingImportResult)
    case finished(ReceiverFinished)

    var phase: ReceiverPhase {
        switch self {
        case .awaitingPakeInit: .awaitingPakeInit
        case .awaitingPakeConfirm: .awaitingPakeConfirm
        case .awaitingReveal: .awaitingReveal
        case .awaitingOffer: .awaitingOffer
        case .reviewingOffer: .reviewingOffer
        case .awaitingCredentialFrame: .awaitingCredentialFrame
        case .awaitingImportResult: .awaitingImportResult
        case .finished: .finished
        }
    }

    /// The channel, until the session ends.
    var channel: SecureChannel? {
        switch self {
        case .awaitingPakeInit: nil
        case .awaitingPakeConfirm(let state): state.channel
        case .awaitingReveal(let state): state.channel
        case .awaitingOffer(let state): state.channel
        case .reviewingOffer(let state): state.channel
        case .awaitingCredentialFrame(let state): state.channel
        case .awaitingImportResult(let state): state.channel
        case .finished: nil
        }
    }

    /// The code, once the reveal arrived.
    var shortCode: ShortCode? {
        switch self {
        case .awaitingPakeInit, .awaitingPakeConfirm, .awaitingReveal: nil
        case .awaitingOffer(let state): state.shortCode
        case .reviewingOffer(let state): state.shortCode
        case .awaitingCredentialFrame(let state): state.shortCode
        case .awaitingImportResult(let state): state.shortCode
        case .finished(let state): state.shortCode
        }
    }

    /// The offered account, once the offer arrived.
    var account: ReceivedAccount? {
        switch self {
        case .awaitingPakeInit, .awaitingPakeConfirm, .awaitingReveal, .awaitingOffer: nil
        case .finished(let state): state.account
        case .reviewingOffer(let state): state.account
        case .awaitingCredentialFrame(let state): state.account
        case .awaitingImportResult(let state): state.account
        }
    }
}
