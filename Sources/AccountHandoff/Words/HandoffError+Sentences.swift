import Foundation

extension HandoffError: TranslatedSentence {
    /// A whole sentence for people that says what happened and what to do; never a secret,
    /// a key or account data. Role-neutral; see ``message(for:in:)``.
    /// - Parameter language: The language to say it in.
    public func sentence(in language: HandoffLanguage) -> String { message(for: nil, in: language) }

    /// A whole sentence for the person on `role`'s device, in English.
    public func message(for role: HandoffRole) -> String { message(for: Optional(role), in: .english) }

    /// A whole sentence for the person on `role`'s device.
    /// - Parameters:
    ///   - role: Whose screen shows it.
    ///   - language: The language to say it in.
    public func message(for role: HandoffRole, in language: HandoffLanguage) -> String {
        message(for: Optional(role), in: language)
    }

    private func message(for role: HandoffRole?, in language: HandoffLanguage) -> String {
        let words = RoleWords(role: role, language: language)
        let other = words.otherDevice, restart = words.restart
        switch kind {
        case .badMagic:
            return sentenceCatalog.sentence("error.badMagic", in: language)
        case .unsupportedVersion(let version) where version < SessionPayload.currentVersion:
            // Only the device that made it is behind; this one reads the current version.
            return sentenceCatalog.sentence("error.unsupportedVersion.older", .number(version), .text(other), .text(restart), in: language)
        case .unsupportedVersion(let version):
            return sentenceCatalog.sentence("error.unsupportedVersion.newer", .number(version), .number(SessionPayload.currentVersion),
                                            .text(restart), in: language)
        case .wrongIntent:
            return sentenceCatalog.sentence("error.wrongIntent", in: language)
        case .nonCanonicalEncoding, .malformed(.length), .malformed(.digits), .malformed(.version), .malformed(.intent),
             .malformed(.expiry), .malformed(.commitment), .malformed(.publicKey), .malformed(.rendezvous):
            return sentenceCatalog.sentence("error.damagedCode", in: language)
        case .rendezvousTooLong:
            return sentenceCatalog.sentence("error.rendezvousTooLong", in: language)
        case .malformed(.typedCode) where role == .receiver:
            return sentenceCatalog.sentence("error.malformedTypedCode.receiver", in: language)
        case .malformed(let field):
            return Self.malformedMessage(field, words: words, in: language)
        case .typedCodeCheckFailed:
            return sentenceCatalog.sentence("error.typedCodeCheckFailed", in: language)
        case .typedCodeIsShortCode:
            return sentenceCatalog.sentence("error.typedCodeIsShortCode", in: language)
        case .typedCodeAlreadyUsed:
            return sentenceCatalog.sentence("error.typedCodeAlreadyUsed", in: language)
        case .typedCodeMismatch:
            return sentenceCatalog.sentence("error.typedCodeMismatch", in: language)
        case .typedRunsBusy:
            return sentenceCatalog.sentence("error.typedRunsBusy", in: language)
        case .typedCodeUnconfirmed:
            return sentenceCatalog.sentence("error.typedCodeUnconfirmed", in: language)
        case .expired:
            return role == .receiver
                ? sentenceCatalog.sentence("error.expired.receiver", in: language)
                : sentenceCatalog.sentence("error.expired.sender", in: language)
        case .expiryTooFar:
            return sentenceCatalog.sentence("error.expiryTooFar", .text(restart), in: language)
        case .oversizedFrame, .unknownMessageType, .unknownTransfer, .replayed, .outOfOrder, .unexpectedMessage:
            return sentenceCatalog.sentence("error.strayMessageIgnored", in: language)
        case .authenticationFailed:
            return sentenceCatalog.sentence("error.authenticationFailed", in: language)
        case .lowOrderPublicKey:
            return sentenceCatalog.sentence("error.lowOrderPublicKey", .text(restart), in: language)
        case .invalidPakeShare:
            return sentenceCatalog.sentence("error.invalidPakeShare", .text(restart), in: language)
        case .commitmentMismatch:
            return sentenceCatalog.sentence("error.commitmentMismatch", in: language)
        case .keyDerivationFailed:
            return sentenceCatalog.sentence("error.keyDerivationFailed", .text(restart), in: language)
        case .invalidEvent(let event, let phase):
            return Self.invalidEventMessage(event, phase, in: language)
        case .invalidClock:
            return sentenceCatalog.sentence("error.invalidClock", .text(restart), in: language)
        case .sessionFinished:
            return sentenceCatalog.sentence("error.sessionFinished", .text(restart), in: language)
        case .cancelledByPeer:
            return sentenceCatalog.sentence("error.cancelledByPeer", .text(Self.capitalised(other)), in: language)
        case .rejectedByPeer:
            return sentenceCatalog.sentence("error.rejectedByPeer", .text(Self.capitalised(other)), in: language)
        case .anotherDeviceJoined:
            // The other device's abort(3) cannot be checked here, so the sentence says who saw it.
            return role == .sender
                ? sentenceCatalog.sentence("error.anotherDeviceJoined.sender", in: language)
                : sentenceCatalog.sentence("error.anotherDeviceJoined.receiver", in: language)
        case .storeUnavailable:
            return role == .sender
                ? sentenceCatalog.sentence("error.storeUnavailable.sender", in: language)
                : sentenceCatalog.sentence("error.storeUnavailable.receiver", in: language)
        case .peerStoreUnavailable:
            return role == .receiver
                ? sentenceCatalog.sentence("error.peerStoreUnavailable.receiver", in: language)
                : sentenceCatalog.sentence("error.peerStoreUnavailable.sender", in: language)
        case .notAuthenticated:
            // The outcome's sentence adds what was (not) sent or imported.
            return sentenceCatalog.sentence("error.notAuthenticated", .text(restart), in: language)
        case .peerNotAuthenticated:
            switch role {
            case .sender: return sentenceCatalog.sentence("error.peerNotAuthenticated.sender", in: language)
            case .receiver: return sentenceCatalog.sentence("error.peerNotAuthenticated.receiver", in: language)
            case nil: return sentenceCatalog.sentence("error.peerNotAuthenticated.neutral", in: language)
            }
        case .importChoiceRequired:
            return ImportNotReady.choiceRequired.sentence(in: language)
        case .transportLost:
            switch role {
            case .sender: return sentenceCatalog.sentence("error.transportLost.sender", in: language)
            case .receiver: return sentenceCatalog.sentence("error.transportLost.receiver", in: language)
            case nil: return sentenceCatalog.sentence("error.transportLost.neutral", in: language)
            }
        case .senderUnreachable:
            return sentenceCatalog.sentence("error.senderUnreachable", in: language)
        case .transferIDInUse:
            return sentenceCatalog.sentence("error.transferIDInUse", in: language)
        case .alreadyScanned:
            return sentenceCatalog.sentence("error.alreadyScanned", in: language)
        case .transferConsumed:
            return sentenceCatalog.sentence("error.transferConsumed", in: language)
        case .invalidConfiguration:
            return sentenceCatalog.sentence("error.invalidConfiguration", in: language)
        case .secureMemoryUnavailable(let failure):
            return failure.sentence(in: language)
        case .registryUnavailable(let failure):
            return sentenceCatalog.sentence("error.registryUnavailable", .text(failure.summary(in: language)), .text(restart), in: language)
        }
    }

    private static func malformedMessage(_ field: Field, words: RoleWords, in language: HandoffLanguage) -> String {
        let restart = words.restart
        switch field {
        case .displayName, .emailAddress, .username, .imapHost:
            return sentenceCatalog.sentence("error.malformedAccountField", .text(field.spokenName(in: language)), .text(restart), in: language)
        case .imapPort:
            return sentenceCatalog.sentence("error.malformedPort", .text(restart), in: language)
        case .imapSecurity:
            return sentenceCatalog.sentence("error.malformedSecurity", .text(restart), in: language)
        case .accountLinkID:
            return sentenceCatalog.sentence("error.malformedAccountLinkID", .text(restart), in: language)
        case .credential:
            return sentenceCatalog.sentence("error.malformedCredential", .number(HandoffSender.maximumCredentialByteCount), .text(restart),
                                            in: language)
        case .padding, .senderGate, .receiptStatus, .receiverGate, .abortReason, .body, .frameHeader, .frameLength, .sequence, .trailingBytes:
            return sentenceCatalog.sentence("error.malformedMessage", .text(capitalised(words.otherDevice)), .text(restart), in: language)
        case .typedCode:
            return sentenceCatalog.sentence("error.malformedTypedCode", in: language)
        case .length, .digits, .version, .intent, .expiry, .commitment, .publicKey, .rendezvous:
            return sentenceCatalog.sentence("error.damagedCode", in: language)
        }
    }

    private static func invalidEventMessage(_ event: LocalEvent, _ phase: SessionPhase, in language: HandoffLanguage) -> String {
        switch (event, phase) {
        case (.codeEntered, .sender(.awaitingHello)), (.reject, .sender(.awaitingHello)):
            return sentenceCatalog.sentence("event.noReceiverYet", in: language)
        case (.reject, .receiver(.awaitingReveal)), (.accept, .receiver(.awaitingReveal)):
            return sentenceCatalog.sentence("event.codeNotRevealedYet", in: language)
        case (.accept, .receiver(.awaitingOffer)):
            return sentenceCatalog.sentence("event.noOfferYet", in: language)
        case (.typedRunRequested, _):
            return sentenceCatalog.sentence("event.typedRunNotPossible", in: language)
        case (.credentialProvided, _):
            return sentenceCatalog.sentence("event.passwordNotNeeded", in: language)
        case (.importFinished, _):
            return sentenceCatalog.sentence("event.noImportRunning", in: language)
        case (_, .receiver(.awaitingImportResult)):
            return sentenceCatalog.sentence("event.importRunning", in: language)
        case (_, .sender(.awaitingReceipt)):
            return sentenceCatalog.sentence("event.passwordAlreadySent", in: language)
        case (_, .sender(.finished)), (_, .receiver(.finished)):
            return sentenceCatalog.sentence("event.transferEnded", in: language)
        default:
            return sentenceCatalog.sentence("event.notPossibleNow", in: language)
        }
    }

    static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}

extension HandoffError.Field {
    /// The field as people call it.
    func spokenName(in language: HandoffLanguage) -> String {
        switch self {
        case .displayName: sentenceCatalog.sentence("field.displayName", in: language)
        case .emailAddress: sentenceCatalog.sentence("field.emailAddress", in: language)
        case .username: sentenceCatalog.sentence("field.username", in: language)
        case .imapHost: sentenceCatalog.sentence("field.imapHost", in: language)
        case .imapPort: sentenceCatalog.sentence("field.imapPort", in: language)
        case .imapSecurity: sentenceCatalog.sentence("field.imapSecurity", in: language)
        case .accountLinkID: sentenceCatalog.sentence("field.accountLinkID", in: language)
        default: rawValue
        }
    }
}

extension RegistryStorageFailure {
    /// A short, secret-free clause naming the problem, in the form that follows "because".
    func summary(in language: HandoffLanguage) -> String {
        switch self {
        case .unreadable(let code):
            sentenceCatalog.sentence("registry.summary.unreadable", .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .unwritable(let code):
            sentenceCatalog.sentence("registry.summary.unwritable", .text(SystemErrorWords.cause(code, in: language)), in: language)
        case .corrupt: sentenceCatalog.sentence("registry.summary.corrupt", in: language)
        case .notARegularFile: sentenceCatalog.sentence("registry.summary.notARegularFile", in: language)
        }
    }
}
