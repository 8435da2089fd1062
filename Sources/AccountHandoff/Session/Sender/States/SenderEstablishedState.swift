/// The sender states that hold a receiver's session and can still stop the transfer:
/// `awaitingCodeConfirmation`, `awaitingAccept` and `awaitingCredential` (Spec 6.0 step 3,
/// first case). The rows they share live here, once: the expiry, `reject`, `cancel`,
/// `transportLost`, an authenticated abort and a second device's hello (Spec 6.0, 6.1).
///
/// `awaitingReceipt` holds the session too, but the credential has left: its endings send no
/// frame and are `deliveredUnconfirmed` (``SenderAwaitingReceipt``).
protocol SenderEstablishedState {
    /// The channel to the accepted receiver, its hello and the code.
    var established: SenderEstablished { get }
}

extension SenderEstablishedState {
    /// The expiry rule (Spec 6.0 step 3): tell the receiver with `abort(6 expired)`, so that
    /// device says "expired" too.
    func expire() -> SenderTransition { abort(.expired, outcome: .expired) }

    /// `reject`: abort(2), `rejected.local` (Spec 6.1).
    func reject() -> SenderTransition { abort(.rejected, outcome: .rejected(by: .local)) }

    /// `cancel`: abort(1), `cancelled.local` (Spec 6.1).
    func cancel() -> SenderTransition { abort(.cancelled, outcome: .cancelled(by: .local)) }

    /// `transportLost` (Spec 6.1): there is no connection left to send an abort on.
    func transportLost() -> SenderTransition { .finish(.ended(.failed(.transportLost))) }

    /// Seals an abort with `reason` and ends with `outcome` (Spec 6.1: "abort(r)").
    func abort(_ reason: AbortReason, outcome: SessionEnd) -> SenderTransition {
        .finish(.ended(outcome), sending: established.channel.sealAbort(reason))
    }

    /// An authenticated abort ends with the outcome its reason names (Spec 6.1).
    func receiveAbort(_ plaintext: UnsafeRawBufferPointer) -> SenderTransition {
        .finish(.ended(AbortReason.endingOfPeerAbort(plaintext)))
    }

    /// Whether `hello` is the accepted receiver's hello again (Spec 6.6: `ignored(replayed)`).
    func isReplay(ofHello hello: [UInt8]) -> Bool { ConstantTime.equal(established.acceptedHello, hello) }

    /// A second device's hello passed H1-H4 before the credential left: it proved it saw the
    /// QR, so the session ends as contested for everyone (Spec 6.1, 6.6). Its keys are a
    /// temporary, wiped as the row returns.
    func receiveSecondHello(_ secondDevice: VerifiedHello, payload: SessionPayload) -> SenderTransition {
        let toSecond = secondDevice.sealAbort(.contested, payload: payload)
        let toFirst = established.channel.sealAbort(.contested)
        return .finish(.ended(.contested), sending: toFirst, replying: toSecond)
    }
}
