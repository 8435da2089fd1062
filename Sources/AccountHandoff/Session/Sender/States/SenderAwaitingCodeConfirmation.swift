/// Sender state `awaitingCodeConfirmation` (Spec 6.1, the `awaitingCodeConfirmation` rows of
/// both tables): the reveal is sent; the person types the code the receiving device shows
/// (Spec 4.4). The sender shows no code.
///
/// Accepts, after the steps of Spec 6.0:
/// - `codeEntered(text)`: a text that is no entry is refused `malformed.typedCode`; a match
///   seals the offer (Spec 3.4), next `awaitingAccept`; a mismatch gives `codeMismatch` while
///   entries are left, and abort(2) `rejected.local` on the last (Spec 4.4);
/// - `reject`, `cancel`, `transportLost`, the expiry, a second device's hello and an
///   authenticated abort: the rows shared by ``SenderEstablishedState``; `tick` changes nothing.
///
/// Refuses every frame but an abort at E3 (Spec 5.3: `ignored(unexpectedMessage)`), and
/// `notAuthenticated`, `storeUnavailable` and `credentialProvided` (`invalidEvent`, thrown by
/// ``HandoffSender``).
struct SenderAwaitingCodeConfirmation: SenderEstablishedState {
    /// What E3 admits here (Spec 5.3): only an abort.
    static let expectation = SecureChannel.Expectation.abortOnly

    let established: SenderEstablished
    /// Six-digit entries that may still be typed before a mismatch ends the session (Spec 4.4).
    private(set) var remainingEntries = HandoffSender.maximumCodeEntries

    /// Accepting the first hello: the nonce is revealed and wiped.
    init(previous: SenderAwaitingHello, established: SenderEstablished) {
        previous.nonce.wipe()
        self.established = established
    }

    /// The person typed the code the receiving device shows (Spec 4.4, 6.1). The offer's
    /// plaintext is the account metadata, which the app holds as ordinary strings and both
    /// screens show: it is sealed straight from its encoding (Spec 3.4).
    ///
    /// - Throws: `malformed.typedCode` for a text that is no six-digit entry; nothing changes.
    consuming func codeEntered(_ typed: String, offering account: AccountMetadata,
                               senderGate: GateDeclaration) throws(HandoffError) -> SenderTransition {
        guard ShortCode.isEntry(typed) else { throw .malformed(.typedCode) }
        guard let shortCode = established.shortCode else { preconditionFailure("the QR way has a short code") }
        guard shortCode.matches(typed: typed) else {
            guard remainingEntries > 1 else { return reject() }
            var next = self
            next.remainingEntries -= 1
            return .next(.awaitingCodeConfirmation(next), [.codeMismatch(remainingEntries: next.remainingEntries)])
        }
        let offer = established.channel.seal(.offer, publicByteCount: AccountMetadataCodec.encodedByteCount(account)) {
            AccountMetadataCodec.encode(account, senderGate: senderGate, into: $0)
        }
        return .next(.awaitingAccept(SenderAwaitingAccept(previous: self)), [.send(offer)])
    }

    /// A frame that passed E1-E4 with ``expectation``: only an abort can.
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer) -> SenderTransition {
        switch type {
        case .abort: receiveAbort(plaintext)
        case .hello, .reveal, .offer, .accept, .credential, .receipt, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused:
            .ignore(.unexpectedMessage(type, in: .sender(.awaitingCodeConfirmation)))
        }
    }
}
