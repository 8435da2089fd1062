/// Receiver state `awaitingCredentialFrame` (Spec 6.2, the `awaitingCredentialFrame` rows of
/// both tables): the accept is sent; the password is on its way.
///
/// Accepts, after the steps of Spec 6.0:
/// - an authenticated credential: a valid plaintext (Spec 3.5) is handed to the app
///   (`deliverAccount`), next `awaitingImportResult`; an invalid one ends
///   `failed.malformed.credential` or `failed.malformed.padding` without a frame;
/// - `reject` and `storeUnavailable`: the rows shared by ``ReceiverShowingCodeState``;
/// - `cancel`, `transportLost`, the expiry and an authenticated abort: the rows shared by
///   ``ReceiverEstablishedState``; `tick` changes nothing.
///
/// Refuses a hello and every frame but a credential or an abort at E3 (Spec 5.3:
/// `ignored(unexpectedMessage)`), and `accept`, `notAuthenticated` and `importFinished`
/// (`invalidEvent`, thrown by ``HandoffReceiver``).
struct ReceiverAwaitingCredentialFrame: ReceiverShowingCodeState {
    /// What E3 admits here (Spec 5.3): a credential or an abort.
    static let expectation = SecureChannel.Expectation.type(.credential)

    let channel: SecureChannel
    let shortCode: ShortCode?
    let account: ReceivedAccount

    init(previous: consuming ReceiverReviewingOffer) {
        channel = previous.channel
        shortCode = previous.shortCode
        account = previous.account
    }

    /// A frame that passed E1-E4 with ``expectation``: a credential or an abort. The delivered
    /// password is kept in the session's arena and handed to the app, whose it is from here on
    /// (Spec 6.5).
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer, arena: SessionArena) -> ReceiverTransition {
        switch type {
        case .credential:
            do {
                let password = try CredentialPlaintext.credential(in: plaintext)
                let credential = arena.handOver(arena.keep(copying: password))
                return .next(.awaitingImportResult(ReceiverAwaitingImportResult(previous: self)),
                             [.deliverAccount(ImportedAccount(metadata: account.metadata, credential: credential))])
            } catch {
                return .finish(.ended(.failed(error)))
            }
        case .abort:
            return receiveAbort(plaintext)
        case .hello, .reveal, .offer, .accept, .receipt, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused:
            return .ignore(.unexpectedMessage(type, in: .receiver(.awaitingCredentialFrame)))
        }
    }
}
