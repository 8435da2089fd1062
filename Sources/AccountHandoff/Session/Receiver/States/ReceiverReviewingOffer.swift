/// Receiver state `reviewingOffer` (Spec 6.2, the `reviewingOffer` rows of both tables): the
/// account and the code are shown; the person accepts or rejects.
///
/// Accepts, after the steps of Spec 6.0:
/// - `accept`: seals the accept with this device's `receiverGate` (Spec 3.6), next
///   `awaitingCredentialFrame`;
/// - `notAuthenticated`: abort(5), `notAuthenticated.local` (Spec 8.7);
/// - `reject` and `storeUnavailable`: the rows shared by ``ReceiverShowingCodeState``;
/// - `cancel`, `transportLost`, the expiry and an authenticated abort: the rows shared by
///   ``ReceiverEstablishedState``; `tick` changes nothing.
///
/// Refuses a hello and every frame but an abort at E3 (Spec 5.3: `ignored(unexpectedMessage)`),
/// and `importFinished` (`invalidEvent`, thrown by ``HandoffReceiver``).
struct ReceiverReviewingOffer: ReceiverShowingCodeState {
    /// What E3 admits here (Spec 5.3): only an abort.
    static let expectation = SecureChannel.Expectation.abortOnly

    let channel: SecureChannel
    let shortCode: ShortCode?
    let account: ReceivedAccount

    init(previous: consuming ReceiverAwaitingOffer, account: AccountMetadata) {
        channel = previous.channel
        shortCode = previous.shortCode
        self.account = ReceivedAccount(account)
    }

    /// `accept`: the person accepted the account; the accept declares this device's gate and
    /// binds the account's link ID (Spec 3.4, 3.6).
    consuming func accept(receiverGate: GateDeclaration) -> ReceiverTransition {
        let frame = withUnsafeBytes(of: receiverGate.byte) { channel.seal(.accept, plaintext: $0, account: account.metadata.linkID) }
        return .next(.awaitingCredentialFrame(ReceiverAwaitingCredentialFrame(previous: self)), [.send(frame)])
    }

    /// `notAuthenticated`: local authentication failed as the person accepted (Spec 8.7).
    func notAuthenticated() -> ReceiverTransition { abort(.notAuthenticated, outcome: .notAuthenticated(by: .local)) }

    /// A frame that passed E1-E4 with ``expectation``: only an abort can.
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer) -> ReceiverTransition {
        switch type {
        case .abort: receiveAbort(plaintext)
        case .hello, .reveal, .offer, .accept, .credential, .receipt, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused:
            .ignore(.unexpectedMessage(type, in: .receiver(.reviewingOffer)))
        }
    }
}
