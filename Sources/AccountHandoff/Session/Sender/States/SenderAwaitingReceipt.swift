/// Sender state `awaitingReceipt` (Spec 6.1, the `awaitingReceipt` rows of both tables): the
/// credential is sent and cannot be taken back, so every ending but a receipt is
/// `deliveredUnconfirmed` and sends no frame; the deadline is `expiry + 120` (the receipt wait).
///
/// Accepts, after the steps of Spec 6.0:
/// - an authenticated receipt: status 1...5 ends `completed.<status>`, another status
///   `deliveredUnconfirmed.failed.malformed.receiptStatus` (Spec 3.6);
/// - an authenticated abort: `deliveredUnconfirmed.<outcome of its reason>`;
/// - a second device's hello passing H1-H4: answered once with `abort(3)`, and the person is
///   warned (`anotherDeviceJoined`, Spec 6.6); the state stays;
/// - `cancel`: `deliveredUnconfirmed.cancelled.local` without a frame; `transportLost`:
///   `deliveredUnconfirmed.failed.transportLost`; `tick` changes nothing.
///
/// The expiry (Spec 6.0 step 3) ends it as `deliveredUnconfirmed` without a frame. Refuses every frame but a receipt or an abort
/// at E3 (Spec 5.3: `ignored(unexpectedMessage)`), and `codeEntered`, `reject`,
/// `notAuthenticated`, `storeUnavailable` and `credentialProvided` (`invalidEvent`, thrown by
/// ``HandoffSender``).
struct SenderAwaitingReceipt {
    /// What E3 admits here (Spec 5.3): a receipt or an abort; whichever authenticates ends
    /// the session, so the channel's transcript is not extended.
    static let expectation = SecureChannel.Expectation.type(.receipt)
    /// How many distinct second devices are remembered, so a repeated hello is answered once.
    static let rememberedSecondHellos = 8

    let established: SenderEstablished
    /// Hellos of second devices already answered with an abort.
    private(set) var answeredHellos: [[UInt8]] = []

    init(previous: consuming SenderAwaitingCredential) {
        established = previous.established
    }

    /// Whether `hello` is the accepted one or a second device's already answered
    /// (Spec 6.6: `ignored(replayed)`).
    func isReplay(ofHello hello: [UInt8]) -> Bool {
        ConstantTime.equal(established.acceptedHello, hello) || answeredHellos.contains(hello)
    }

    /// A second device's hello passed H1-H4 after the credential left: it is told `contested`
    /// on its own keys (a temporary, wiped as the row returns) and remembered (the oldest is
    /// forgotten beyond the limit); the session goes on (Spec 6.1, 6.6).
    func receiveSecondHello(_ secondDevice: VerifiedHello, bytes hello: [UInt8], payload: SessionPayload) -> SenderTransition {
        let abort = secondDevice.sealAbort(.contested, payload: payload)
        var next = self
        next.answeredHellos.append(hello)
        if next.answeredHellos.count > Self.rememberedSecondHellos { next.answeredHellos.removeFirst() }
        return .next(.awaitingReceipt(next), [.reply(abort), .anotherDeviceJoined])
    }

    /// A frame that passed E1-E4 with ``expectation``: a receipt or an abort.
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer) -> SenderTransition {
        switch type {
        case .abort:
            return .finish(.deliveredUnconfirmed(AbortReason.endingOfPeerAbort(plaintext)))
        case .receipt:
            let status = plaintext.count == 1 ? ReceiptStatus(rawValue: plaintext[0]) : nil
            guard let status else { return .finish(.deliveredUnconfirmed(.failed(.malformed(.receiptStatus)))) }
            return .finish(.completed(status))
        case .hello, .reveal, .offer, .accept, .credential, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused:
            return .ignore(.unexpectedMessage(type, in: .sender(.awaitingReceipt)))
        }
    }

    /// `cancel`: the credential already left, so there is nothing to stop and no frame is sent.
    func cancel() -> SenderTransition { .finish(.deliveredUnconfirmed(.cancelled(by: .local))) }

    /// `transportLost` (Spec 6.1).
    func transportLost() -> SenderTransition { .finish(.deliveredUnconfirmed(.failed(.transportLost))) }

    /// The receipt wait ran out (Spec 6.0 step 3): no frame.
    func expire() -> SenderTransition { .finish(.deliveredUnconfirmed(.expired)) }
}
