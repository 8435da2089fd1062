/// Sender state `awaitingCredential` (Spec 6.1, the `awaitingCredential` rows of both tables):
/// both people confirmed; the app re-authenticates the user and reads the password (Spec 8.7).
///
/// Accepts, after the steps of Spec 6.0:
/// - `credentialProvided(pw)`: pads and seals the password (Spec 3.5), next `awaitingReceipt`;
///   a password of the wrong size is refused `malformed.credential`;
/// - `notAuthenticated`: abort(5), `notAuthenticated.local`; `storeUnavailable`: abort(4),
///   `storeUnavailable.local` (Spec 6.1);
/// - `reject`, `cancel`, `transportLost`, the expiry, a second device's hello and an
///   authenticated abort: the rows shared by ``SenderEstablishedState``; `tick` changes nothing.
///
/// Refuses every frame but an abort at E3 (Spec 5.3: `ignored(unexpectedMessage)`), and
/// `codeEntered` (`invalidEvent`, thrown by ``HandoffSender``).
struct SenderAwaitingCredential: SenderEstablishedState {
    /// What E3 admits here (Spec 5.3): only an abort.
    static let expectation = SecureChannel.Expectation.abortOnly

    let established: SenderEstablished

    init(previous: consuming SenderAwaitingAccept) {
        established = previous.established
    }

    /// `credentialProvided(pw)`: the password is padded in a temporary of the session's arena,
    /// sealed bound to `account` (Spec 3.5) and wiped; the caller wipes `credential`.
    ///
    /// - Throws: `malformed.credential` for a password of the wrong size; nothing changes.
    consuming func credentialProvided(_ credential: SecretBytes, account: AccountLinkID, arena: SessionArena) throws(HandoffError) -> SenderTransition {
        guard CredentialPlaintext.isValidLength(credential.count) else { throw .malformed(.credential) }
        let frame = arena.withScratch(byteCount: CredentialPlaintext.paddedByteCount) { padded in
            credential.withUnsafeBytes { CredentialPlaintext.pad($0, into: padded) }
            return established.channel.seal(.credential, plaintext: UnsafeRawBufferPointer(padded), account: account)
        }
        return .next(.awaitingReceipt(SenderAwaitingReceipt(previous: self)), [.send(frame)])
    }

    /// `notAuthenticated`: local authentication failed at the password's gate (Spec 8.7).
    func notAuthenticated() -> SenderTransition { abort(.notAuthenticated, outcome: .notAuthenticated(by: .local)) }

    /// `storeUnavailable`: the password could not be read from this device's keychain.
    func storeUnavailable() -> SenderTransition { abort(.storeUnavailable, outcome: .storeUnavailable(by: .local)) }

    /// A frame that passed E1-E4 with ``expectation``: only an abort can.
    func receive(_ type: MessageType, opened plaintext: UnsafeRawBufferPointer) -> SenderTransition {
        switch type {
        case .abort: receiveAbort(plaintext)
        case .hello, .reveal, .offer, .accept, .credential, .receipt, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused:
            .ignore(.unexpectedMessage(type, in: .sender(.awaitingCredential)))
        }
    }
}
