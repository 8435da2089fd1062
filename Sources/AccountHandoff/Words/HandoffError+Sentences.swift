import Foundation

extension HandoffError: CustomStringConvertible, LocalizedError {
    /// A whole sentence for people that says what happened and what to do; never a secret,
    /// a key or account data. Role-neutral; see ``message(for:)``.
    public var description: String { message(for: nil) }

    /// The same sentence, for `LocalizedError`.
    public var errorDescription: String? { description }

    /// A whole sentence for the person on `role`'s device.
    public func message(for role: HandoffRole) -> String { message(for: Optional(role)) }

    private func message(for role: HandoffRole?) -> String {
        let other = role?.otherDevice ?? "the other device"
        let restart = role == .receiver ? "ask the sending device for a new code" : "start a new transfer"
        switch kind {
        case .badMagic:
            return "This is not an AccountHandoff code; scan the code shown by the sending device."
        case .unsupportedVersion(let version) where version < SessionPayload.currentVersion:
            // Only the device that made it is behind; this one reads the current version.
            return "This code or message uses protocol version \(version), from an older version of the app, so only \(other) needs updating; update the app there, then \(restart)."
        case .unsupportedVersion(let version):
            return "This code or message uses protocol version \(version), newer than this app's (\(SessionPayload.currentVersion)), so only this device needs updating; update the app here, then \(restart)."
        case .wrongIntent:
            return "This code asks for a different kind of transfer than the one you chose; check which device is sending."
        case .nonCanonicalEncoding, .malformed(.length), .malformed(.digits), .malformed(.version), .malformed(.intent),
             .malformed(.expiry), .malformed(.commitment), .malformed(.publicKey), .malformed(.rendezvous):
            return "This code is damaged or incomplete; scan the code shown by the sending device again."
        case .rendezvousTooLong:
            return "This code is not a valid AccountHandoff code; scan the code shown by the sending device again."
        case .malformed(.typedCode) where role == .receiver:
            return "The code to type here has 11 digits and is shown beside the sending device's QR code (spaces and hyphens are ignored); type all 11 digits."
        case .malformed(let field):
            return Self.malformedMessage(field, other: other, restart: restart)
        case .typedCodeCheckFailed:
            return "One of the digits you typed does not fit the others (the code's last digit checks them), so nothing was sent; compare the code with the sending device's screen and type it again."
        case .typedCodeIsShortCode:
            return "Those six digits are the code to type on the sending device; here, type the 11-digit code the sending device shows beside its QR code."
        case .typedCodeAlreadyUsed:
            return "This device already used that code, and a code works only once; ask the sending device for its new code and type that one."
        case .typedCodeMismatch:
            return "The code did not match the device this one reached, so nothing was sent; ask the sending device for its new code and type that one."
        case .typedRunsBusy:
            return "Several devices are trying codes on this device at once; the next one is tried as soon as one of them is done."
        case .typedCodeUnconfirmed:
            return "The connection closed before the sending device confirmed the code, and the code is now used up; ask the sending device for its new code and type that one."
        case .expired:
            return role == .receiver
                ? "This code has expired; ask the sending device for a new code."
                : "The transfer has expired; start a new transfer."
        case .expiryTooFar:
            return "This code claims to be valid for longer than any transfer may be; check the clocks of both devices, then \(restart)."
        case .oversizedFrame, .unknownMessageType, .unknownTransfer, .replayed, .outOfOrder, .unexpectedMessage:
            return "A message that does not belong to this transfer was ignored; the transfer goes on."
        case .authenticationFailed:
            return "A message failed its authenticity check and was ignored; the transfer goes on."
        case .lowOrderPublicKey:
            return "The other device sent an invalid key; \(restart)."
        case .invalidPakeShare:
            return "The other device sent an invalid key-exchange value, so it was not used; \(restart) if the transfer does not go on."
        case .commitmentMismatch:
            return "The sending device broke the protocol (its code does not match what its QR promised); do not use that device, and start again with one you trust."
        case .keyDerivationFailed:
            return "The session keys could not be derived; \(restart)."
        case .invalidEvent(let event, let phase):
            return Self.invalidEventMessage(event, phase)
        case .invalidClock:
            return "This device's clock gives an invalid time; correct the date and time, then \(restart)."
        case .sessionFinished:
            return "This transfer has already ended; \(restart) to try again."
        case .cancelledByPeer:
            return "\(Self.capitalised(other)) cancelled the transfer; nothing was imported."
        case .rejectedByPeer:
            return "\(Self.capitalised(other)) rejected the transfer; nothing was imported. Start a new transfer if you want to try again."
        case .anotherDeviceJoined:
            // The other device's abort(3) cannot be checked here, so the sentence says who saw it.
            return "Another device tried to join this transfer (this device saw it, or the \(role == .sender ? "receiving" : "sending") device reported it), so it was stopped; start a new transfer and keep the code out of sight."
        case .storeUnavailable:
            return role == .sender
                ? "This device could not read the account's password from its keychain, so the password was not sent; unlock the keychain or check the account, then start a new transfer."
                : "This device cannot import the account right now (its account store, keychain or mail-server check is not ready), so the password was not sent; fix that, then ask the sending device for a new code."
        case .peerStoreUnavailable:
            return role == .receiver
                ? "The sending device could not read the account's password, so nothing was sent; ask its owner to check its keychain, then ask for a new code."
                : "The receiving device cannot import the account right now (its account store, keychain or mail-server check is not ready), so the password was not sent; ask its owner to fix that, then start a new transfer."
        case .notAuthenticated:
            // The outcome's sentence adds what was (not) sent or imported.
            return "You could not be authenticated on this device, so the transfer was stopped; \(restart) when you can authenticate."
        case .peerNotAuthenticated:
            return "The person at \(other) could not be authenticated there, so the transfer was stopped\(role == .receiver ? " and the password was not sent" : ""); \(restart) if you want to try again."
        case .importChoiceRequired:
            return ImportNotReady.choiceRequired.description
        case .transportLost:
            return "The connection to \(other) was lost; \(restart)."
        case .senderUnreachable:
            return "Nothing answered at the address in this code: check that the sending device still shows it and is on the same network, then try again."
        case .transferIDInUse:
            return "This transfer could not be started because its identifier is already in use; start a new transfer."
        case .alreadyScanned:
            return "This code was already used on this device; ask the sending device for a new code."
        case .transferConsumed:
            return "This transfer has ended and cannot be used again; start a new transfer."
        case .invalidConfiguration:
            return "A transfer setting is out of range: the lifetime must be 30 to 600 seconds and the clock tolerance at most 120 seconds."
        case .secureMemoryUnavailable(let failure):
            return failure.description
        case .registryUnavailable(let failure):
            return "This device cannot record which transfers it has used, because \(failure.summary); fix the storage, then \(restart)."
        }
    }

    private static func malformedMessage(_ field: Field, other: String, restart: String) -> String {
        switch field {
        case .displayName, .emailAddress, .username, .imapHost:
            return "The account's \(field.spokenName) is not valid (for example it contains invisible or control characters, or is too long); fix the account on the sending device, then \(restart)."
        case .imapPort:
            return "The account's mail server port is not valid (a port is a number from 1 to 65535, never 0); fix the account on the sending device, then \(restart)."
        case .imapSecurity:
            return "The account's connection security is not one this app knows (it knows TLS and STARTTLS); check the account on the sending device and update the app there, then \(restart)."
        case .accountLinkID:
            return "The account's identifier is not valid (it must be a UUID); fix the account on the sending device, then \(restart)."
        case .credential:
            return "The password must be 1 to \(HandoffSender.maximumCredentialByteCount) bytes long; check the password, then \(restart)."
        case .padding, .receiptStatus, .abortReason, .body, .frameHeader, .frameLength, .sequence, .trailingBytes:
            return "\(capitalised(other)) sent a malformed message; \(restart)."
        case .typedCode:
            return "A code has six digits (spaces are ignored); type the six digits the receiving device shows."
        case .length, .digits, .version, .intent, .expiry, .commitment, .publicKey, .rendezvous:
            return "This code is damaged or incomplete; scan the code shown by the sending device again."
        }
    }

    private static func invalidEventMessage(_ event: LocalEvent, _ phase: SessionPhase) -> String {
        switch (event, phase) {
        case (.codeEntered, .sender(.awaitingHello)), (.reject, .sender(.awaitingHello)):
            return "No receiving device has joined yet; wait until it shows a code, then type that code here."
        case (.reject, .receiver(.awaitingReveal)), (.accept, .receiver(.awaitingReveal)):
            return "The sending device has not sent its code yet; wait until this screen shows the code."
        case (.accept, .receiver(.awaitingOffer)):
            return "The sending device has not offered the account yet; wait until it is shown, then confirm."
        case (.typedRunRequested, _):
            return "Typing a code is not possible for this transfer any more; scan the QR code the sending device shows, or start again."
        case (.credentialProvided, _):
            return "The password is not needed at this step; it is asked for only after the receiving device accepted the account."
        case (.importFinished, _):
            return "There is no account being imported right now."
        case (_, .receiver(.awaitingImportResult)):
            return "The account is being imported; wait until the import has finished."
        case (_, .sender(.awaitingReceipt)):
            return "The password has already been sent; wait for the receiving device to confirm the import."
        case (_, .sender(.finished)), (_, .receiver(.finished)):
            return "This transfer has already ended."
        default:
            return "That step is not possible at this point of the transfer; follow the steps shown on the screen."
        }
    }

    static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}

extension HandoffError.Field {
    /// The field as people call it.
    var spokenName: String {
        switch self {
        case .displayName: "display name"
        case .emailAddress: "e-mail address"
        case .username: "user name"
        case .imapHost: "mail server name"
        case .imapPort: "mail server port"
        case .imapSecurity: "connection security"
        case .accountLinkID: "identifier"
        default: rawValue
        }
    }
}

extension RegistryStorageFailure {
    /// A short, secret-free clause naming the problem.
    var summary: String {
        switch self {
        case .unreadable(let code): "its record file cannot be read: \(SystemErrorWords.cause(code))"
        case .unwritable(let code): "its record file cannot be written: \(SystemErrorWords.cause(code))"
        case .corrupt: "its record file is damaged"
        case .notARegularFile: "its record path is not a regular file (or is a symbolic link)"
        }
    }
}
