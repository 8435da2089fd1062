/// Receiver state `awaitingOffer` (Spec 6.2, the `awaitingOffer` rows of both tables): the
/// reveal opened the commitment; the code is shown.
///
/// Accepts, after the steps of Spec 6.0:
/// - an authenticated offer: a plaintext that decodes (Spec 3.4) gives `showAccount` with the
///   sending device's gate declaration, next
///   `reviewingOffer`; one that does not ends `failed.<error>` without a frame;
/// - `reject` and `storeUnavailable`: the rows shared by ``ReceiverShowingCodeState``;
/// - `cancel`, `transportLost`, the expiry and an authenticated abort: the rows shared by
///   ``ReceiverEstablishedState``; `tick` changes nothing.
///
/// Refuses a hello and every frame but an offer or an abort at E3 (Spec 5.3:
/// `ignored(unexpectedMessage)`), and `accept`, `notAuthenticated` and `importFinished`
/// (`invalidEvent`, thrown by ``HandoffReceiver``).
struct ReceiverAwaitingOffer: ReceiverShowingCodeState {
    /// What E3 admits here (Spec 5.3): an offer or an abort.
    static let expectation = SecureChannel.Expectation.type(.offer)

    let channel: SecureChannel
    let shortCode: ShortCode?

    init(previous: consuming ReceiverAwaitingReveal, shortCode: ShortCode) {
        channel = previous.channel
        self.shortCode = shortCode
    }

    /// The typed way's `pakeConfirm` arrived (Spec 6.2): no code is shown.
    init(confirmed channel: SecureChannel) {
        self.channel = channel
        shortCode = nil
    }

    /// A frame that passed E1-E4 with ``expectation``: an offer or an abort.
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer) -> ReceiverTransition {
        switch type {
        case .offer:
            do {
                let offered = try AccountMetadataCodec.decode(plaintext)
                return .next(.reviewingOffer(ReceiverReviewingOffer(previous: self, account: offered.account)),
                             [.showAccount(offered.account, senderGate: offered.senderGate)])
            } catch {
                return .finish(.ended(.failed(error)))
            }
        case .abort:
            return receiveAbort(plaintext)
        case .hello, .reveal, .accept, .credential, .receipt, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused:
            return .ignore(.unexpectedMessage(type, in: .receiver(.awaitingOffer)))
        }
    }
}
