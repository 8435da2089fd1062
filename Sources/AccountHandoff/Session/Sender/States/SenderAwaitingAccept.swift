/// Sender state `awaitingAccept` (Spec 6.1, the `awaitingAccept` rows of both tables): the
/// offer is sent; the receiving person reviews the account.
///
/// Accepts, after the steps of Spec 6.0:
/// - an authenticated accept (Spec 5.3) whose `receiverGate` is 1 or 2 (Spec 3.6): asks the app
///   for the password (`requestCredential`, with the receiving device's declaration), next
///   `awaitingCredential`; any other value ends `failed.malformed.receiverGate` without a frame;
/// - `reject`, `cancel`, `transportLost`, the expiry, a second device's hello and an
///   authenticated abort: the rows shared by ``SenderEstablishedState``; `tick` changes nothing.
///
/// Refuses every frame but an accept or an abort at E3 (Spec 5.3: `ignored(unexpectedMessage)`),
/// and `codeEntered`, `notAuthenticated`, `storeUnavailable` and `credentialProvided`
/// (`invalidEvent`, thrown by ``HandoffSender``).
struct SenderAwaitingAccept: SenderEstablishedState {
    /// What E3 admits here (Spec 5.3): an accept or an abort.
    static let expectation = SecureChannel.Expectation.type(.accept)

    let established: SenderEstablished

    init(previous: consuming SenderAwaitingCodeConfirmation) {
        established = previous.established
    }

    /// The typed way paired (Spec 6.1): the offer left with the `pakeConfirm`.
    init(typedWay established: SenderEstablished) {
        self.established = established
    }

    /// A frame that passed E1-E4 with ``expectation``: an accept or an abort.
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer) -> SenderTransition {
        switch type {
        case .accept:
            if plaintext.count == 1, let receiverGate = GateDeclaration(rawValue: plaintext[0]) {
                .next(.awaitingCredential(SenderAwaitingCredential(previous: self)), [.requestCredential(receiverGate: receiverGate)])
            } else {
                .finish(.ended(.failed(.malformed(.receiverGate))))
            }
        case .abort: receiveAbort(plaintext)
        case .hello, .reveal, .offer, .credential, .receipt, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused:
            .ignore(.unexpectedMessage(type, in: .sender(.awaitingAccept)))
        }
    }
}
