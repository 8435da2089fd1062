/// Receiver state `awaitingReveal` (Spec 6.2, the `awaitingReveal` rows of both tables): the
/// hello is sent; no code exists yet.
///
/// Accepts, after the steps of Spec 6.0:
/// - an authenticated reveal (Spec 5.2): a nonce that opens the QR's commitment derives the
///   code (Spec 4.4), `showShortCode`, next `awaitingOffer`; one that does not ends
///   `failed.commitmentMismatch` without a frame;
/// - `cancel`, `transportLost`, the expiry and an authenticated abort: the rows shared by
///   ``ReceiverEstablishedState``; `tick` changes nothing.
///
/// Refuses a hello and every frame but a reveal or an abort at E3 (Spec 5.3:
/// `ignored(unexpectedMessage)`), and `accept`, `reject` (no code shown yet),
/// `storeUnavailable`, `notAuthenticated` and `importFinished` (`invalidEvent`, thrown by
/// ``HandoffReceiver``).
struct ReceiverAwaitingReveal: ReceiverEstablishedState {
    /// What E3 admits here (Spec 5.3): a reveal or an abort.
    static let expectation = SecureChannel.Expectation.type(.reveal)

    let channel: SecureChannel

    /// A frame that passed E1-E4 with ``expectation``: a reveal, checked against the QR's
    /// `commitment`, or an abort.
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer, commitment: ArraySlice<UInt8>,
                 arena: SessionArena) -> ReceiverTransition {
        switch type {
        case .reveal: receiveReveal(plaintext, commitment: commitment, arena: arena)
        case .abort: receiveAbort(plaintext)
        case .hello, .offer, .accept, .credential, .receipt, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused:
            .ignore(.unexpectedMessage(type, in: .receiver(.awaitingReveal)))
        }
    }

    /// The sender's reveal: check the commitment, derive the code (Spec 5.2); the code key is
    /// wiped right after use.
    private func receiveReveal(_ nonce: UnsafeRawBufferPointer, commitment: ArraySlice<UInt8>,
                               arena: SessionArena) -> ReceiverTransition {
        guard Commitment.opens(commitment, with: nonce) else { return .finish(.ended(.failed(.commitmentMismatch))) }
        do {
            let code = try channel.keys.codeKey.withUnsafeBytes { (codeKey) throws(HandoffError) in
                try ShortCode.derive(codeKey: codeKey, nonce: nonce, handshakeTranscript: channel.handshakeTranscript, arena: arena)
            }
            channel.keys.codeKey.wipe()
            return .next(.awaitingOffer(ReceiverAwaitingOffer(previous: self, shortCode: code)), [.showShortCode(code)])
        } catch {
            return .finish(.ended(.failed(error)))  // keyDerivationFailed (Spec 4.4)
        }
    }
}
