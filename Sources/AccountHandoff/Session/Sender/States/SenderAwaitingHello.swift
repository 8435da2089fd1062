/// Sender state `awaitingHello` (Spec 6.1, the `awaitingHello` rows of both tables): the QR is
/// shown; the nonce is still secret and no receiver's session exists.
///
/// Accepts, after the steps of Spec 6.0:
/// - a hello passing H1-H4 (Spec 5.1): derives the code (Spec 4.4), seals the reveal (Spec 5.2)
///   and asks for the code, next `awaitingCodeConfirmation`;
/// - `cancel`: ends `cancelled.local` without a frame (no receiver's keys yet);
/// - `transportLost`: ends `failed.transportLost`; `tick` changes nothing.
///
/// The expiry (Spec 6.0 step 3) ends it without a frame. Refuses every other frame type (`ignored(unexpectedMessage)`, Spec 6.1),
/// and `codeEntered`, `reject`, `notAuthenticated`, `storeUnavailable` and
/// `credentialProvided` (`invalidEvent`, thrown by ``HandoffSender``).
struct SenderAwaitingHello {
    /// The nonce the QR's commitment binds; revealed once a hello authenticates.
    let nonce: SessionSecret
    /// The typed way while it is open (Spec 6.1); `nil` when it was never offered or is withdrawn.
    var typed: SenderTypedWay?

    /// The first hello passing H1-H4: its keys are kept (`arena`), the code is derived with
    /// the nonce, then the nonce is revealed (Spec 5.2); the code key is wiped right after use.
    func receiveHello(_ hello: VerifiedHello, bytes: [UInt8], payload: SessionPayload, arena: SessionArena) -> SenderTransition {
        let channel = hello.keep(in: arena, payload: payload)
        let code: ShortCode
        do {
            code = try ShortCode.derive(codeKey: channel.keys.codeKey, nonce: nonce, handshakeTranscript: channel.handshakeTranscript,
                                        arena: arena)
        } catch {
            return .finish(.ended(.failed(error)))  // keyDerivationFailed (Spec 4.4)
        }
        let reveal = nonce.withUnsafeBytes { channel.seal(.reveal, plaintext: $0) }
        channel.keys.codeKey.wipe()
        let established = SenderEstablished(channel: channel, acceptedHello: bytes, shortCode: code)
        let next = SenderAwaitingCodeConfirmation(previous: self, established: established)
        return .next(.awaitingCodeConfirmation(next), [.send(reveal), .askForCode])
    }

    /// `cancel`: no receiver holds keys yet, so no frame goes out (Spec 6.1).
    func cancel() -> SenderTransition { .finish(.ended(.cancelled(by: .local))) }

    /// `transportLost` (Spec 6.1).
    func transportLost() -> SenderTransition { .finish(.ended(.failed(.transportLost))) }

    /// The expiry rule (Spec 6.0 step 3): no receiver to tell.
    func expire() -> SenderTransition { .finish(.ended(.expired)) }
}
