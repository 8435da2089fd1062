/// Sender state `awaitingHello` (Spec 6.1, the `awaitingHello` rows of both tables): the QR is
/// shown; the nonce is still secret and no receiver's session exists.
///
/// Accepts, after the steps of Spec 6.0:
/// - a hello passing H1-H4 (Spec 5.1): derives the code (Spec 4.4), seals the reveal (Spec 5.2)
///   and asks for the code, next `awaitingCodeConfirmation`;
/// - `cancel`: ends `cancelled.local` without a frame (no receiver's keys yet);
/// - `transportLost`: ends `failed.transportLost`; `tick` changes nothing.
///
/// The expiry (Spec 6.0 step 3) and a step that finds no guarded memory (Spec 6.0 step 4) end
/// it without a frame. Refuses every other frame type (`ignored(unexpectedMessage)`, Spec 6.1),
/// and `codeEntered`, `reject`, `notAuthenticated`, `storeUnavailable` and
/// `credentialProvided` (`invalidEvent`, thrown by ``HandoffSender``).
struct SenderAwaitingHello {
    /// The nonce the QR's commitment binds; revealed once a hello authenticates.
    let nonce: SecretBytes

    /// The first hello passing H1-H4, whose keys `channel` holds: derive the code with the
    /// nonce, then reveal the nonce (Spec 5.2); the code key is wiped right after use.
    func receiveHello(on channel: SecureChannel, bytes hello: [UInt8]) -> SenderTransition {
        let code: ShortCode
        do {
            code = try ShortCode.derive(codeKey: channel.keys.codeKey, nonce: nonce,
                                        handshakeTranscript: channel.handshakeTranscript)
        } catch .keyDerivationFailed {
            channel.wipe()
            return .finish(.ended(.failed(.keyDerivationFailed)))
        } catch {
            channel.wipe()
            guard let failure = error.secureMemoryFailure else { return .ignore(error) }
            // Still awaitingHello: no receiver's session is established, so no frame goes out.
            return endForWantOfMemory(failure)
        }
        let reveal = channel.seal(.reveal, plaintext: nonce)
        channel.keys.codeKey.wipe()
        let established = SenderEstablished(channel: channel, acceptedHello: hello, shortCode: code)
        let next = SenderAwaitingCodeConfirmation(previous: self, established: established)
        return .next(.awaitingCodeConfirmation(next), [.send(reveal), .askForCode])
    }

    /// `cancel`: no receiver holds keys yet, so no frame goes out (Spec 6.1).
    func cancel() -> SenderTransition { .finish(.ended(.cancelled(by: .local))) }

    /// `transportLost` (Spec 6.1).
    func transportLost() -> SenderTransition { .finish(.ended(.failed(.transportLost))) }

    /// The expiry rule (Spec 6.0 step 3): no receiver to tell.
    func expire() -> SenderTransition { .finish(.ended(.expired)) }

    /// No guarded memory for a step (Spec 6.0 step 4): no receiver to tell.
    func endForWantOfMemory(_ failure: SecureMemoryFailure) -> SenderTransition {
        .finish(.ended(.failed(.secureMemoryUnavailable(failure))))
    }
}
