/// The receiver states that hold the session's keys before the credential arrived:
/// `awaitingReveal`, `awaitingOffer`, `reviewingOffer` and `awaitingCredentialFrame` (Spec 6.0
/// step 3, first case). The rows they share live here, once: the expiry, `cancel`,
/// `transportLost` and an authenticated abort (Spec 6.0, 6.2).
///
/// `awaitingImportResult` holds the keys too, but the credential is the app's: it never
/// expires, cannot be cancelled and outlives a lost transport (``ReceiverAwaitingImportResult``).
protocol ReceiverEstablishedState {
    /// The channel to the sender.
    var channel: SecureChannel { get }
}

extension ReceiverEstablishedState {
    /// The expiry rule (Spec 6.0 step 3): tell the sender with `abort(6 expired)` before ending.
    func expire() -> ReceiverTransition { abort(.expired, outcome: .expired) }

    /// `cancel`: abort(1), `cancelled.local` (Spec 6.2).
    func cancel() -> ReceiverTransition { abort(.cancelled, outcome: .cancelled(by: .local)) }

    /// `transportLost` (Spec 6.2): once the sender's expiry has passed on this device's clock,
    /// a closed connection is the sender stopping, and its `abort(expired)` can be lost (before
    /// the reveal it holds no keys to send one): the person is told the code ran out.
    func transportLost(afterExpiry: Bool) -> ReceiverTransition {
        .finish(.ended(afterExpiry ? .expired : .failed(.transportLost)))
    }

    /// Seals an abort with `reason` and ends with `outcome` (Spec 6.2: "abort(r)").
    func abort(_ reason: AbortReason, outcome: SessionEnd) -> ReceiverTransition {
        .finish(.ended(outcome), sending: channel.sealAbort(reason))
    }

    /// An authenticated abort ends with the outcome its reason names (Spec 6.2).
    func receiveAbort(_ plaintext: UnsafeRawBufferPointer) -> ReceiverTransition {
        .finish(.ended(AbortReason.endingOfPeerAbort(plaintext)))
    }
}

/// The established receiver states that show the code: `awaitingOffer`, `reviewingOffer` and
/// `awaitingCredentialFrame` (Spec 6.2). The person can reject as soon as the code is shown,
/// and the app can say that its store cannot take the account before the password travels.
protocol ReceiverShowingCodeState: ReceiverEstablishedState {
    /// The code on screen; `nil` in the typed way, where the person typed the code instead
    /// (Spec 6.2).
    var shortCode: ShortCode? { get }
}

extension ReceiverShowingCodeState {
    /// `reject`: abort(2), `rejected.local` (Spec 6.2).
    func reject() -> ReceiverTransition { abort(.rejected, outcome: .rejected(by: .local)) }

    /// `storeUnavailable`: abort(4), `storeUnavailable.local` (Spec 6.2).
    func storeUnavailable() -> ReceiverTransition { abort(.storeUnavailable, outcome: .storeUnavailable(by: .local)) }
}
