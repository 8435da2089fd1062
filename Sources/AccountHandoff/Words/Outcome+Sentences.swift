extension SenderOutcome: CustomStringConvertible {
    /// What the sending person is told, in English: a whole sentence, true whatever the
    /// receiving device did, that says what to do next (Spec 6.4.1).
    public var message: String { message(in: .english) }

    /// The sentence, as the description (English).
    public var description: String { message }

    /// What the sending person is told, in `language`.
    /// - Parameter language: The language to say it in.
    public func message(in language: HandoffLanguage) -> String {
        switch self {
        case .completed(.imported):
            return sentenceCatalog.sentence("sender.completed.imported", in: language)
        case .completed(.validationFailed):
            // The receipt carries no reason (Spec 3.6): the server may not have been found or
            // reached, or its certificate not trusted, so no login was tried at all.
            return sentenceCatalog.sentence("sender.completed.validationFailed", in: language)
        case .completed(.declined):
            return sentenceCatalog.sentence("sender.completed.declined", in: language)
        case .completed(.storeFailed):
            return sentenceCatalog.sentence("sender.completed.storeFailed", in: language)
        case .completed(.cancelled):
            return sentenceCatalog.sentence("sender.completed.cancelled", in: language)
        case .deliveredUnconfirmed(let end):
            return sentenceCatalog.sentence("sender.deliveredUnconfirmed", .text(Self.unconfirmedReason(end, in: language)), in: language)
        case .ended(let end):
            return sentenceCatalog.sentence("sender.ended", .text(Self.endedMessage(end, in: language)), in: language)
        }
    }

    private static func unconfirmedReason(_ end: SessionEnd, in language: HandoffLanguage) -> String {
        switch end {
        case .cancelled(by: .local): sentenceCatalog.sentence("sender.unconfirmed.cancelledLocally", in: language)
        case .cancelled(by: .peer): sentenceCatalog.sentence("sender.unconfirmed.cancelledByPeer", in: language)
        case .rejected(by: .local): sentenceCatalog.sentence("sender.unconfirmed.rejectedLocally", in: language)
        case .rejected(by: .peer): sentenceCatalog.sentence("sender.unconfirmed.rejectedByPeer", in: language)
        case .contested: sentenceCatalog.sentence("sender.unconfirmed.contested", in: language)
        case .storeUnavailable(by: .local): sentenceCatalog.sentence("sender.unconfirmed.stoppedWaiting", in: language)
        case .storeUnavailable(by: .peer): sentenceCatalog.sentence("sender.unconfirmed.peerStoreUnavailable", in: language)
        case .notAuthenticated: sentenceCatalog.sentence("sender.unconfirmed.notAuthenticated", in: language)
        case .expired: sentenceCatalog.sentence("sender.unconfirmed.expired", in: language)
        case .failed(.transportLost): sentenceCatalog.sentence("sender.unconfirmed.transportLost", in: language)
        case .failed: sentenceCatalog.sentence("sender.unconfirmed.malformed", in: language)
        }
    }

    static func endedMessage(_ end: SessionEnd, in language: HandoffLanguage) -> String {
        switch end {
        case .cancelled(by: .local): sentenceCatalog.sentence("outcome.cancelledLocally", in: language)
        case .cancelled(by: .peer): sentenceCatalog.sentence("sender.ended.cancelledByPeer", in: language)
        case .rejected(by: .local): sentenceCatalog.sentence("sender.ended.rejectedLocally", in: language)
        case .rejected(by: .peer): sentenceCatalog.sentence("sender.ended.rejectedByPeer", in: language)
        case .contested: HandoffError.anotherDeviceJoined.message(for: .sender, in: language)
        case .storeUnavailable(let party): (party == .local ? HandoffError.storeUnavailable : .peerStoreUnavailable).message(for: .sender, in: language)
        case .notAuthenticated(by: .local): HandoffError.notAuthenticated.message(for: .sender, in: language)
        case .notAuthenticated(by: .peer): HandoffError.peerNotAuthenticated.message(for: .sender, in: language)
        case .expired: sentenceCatalog.sentence("sender.ended.expired", in: language)
        case .failed(let error): sentenceCatalog.sentence("outcome.failed", .text(error.message(for: .sender, in: language)), in: language)
        }
    }
}

extension ReceiverOutcome: CustomStringConvertible {
    /// What the receiving person is told, in English: a whole sentence that says what to do
    /// next (Spec 6.4.1).
    public var message: String { message(in: .english) }

    /// The sentence, as the description (English).
    public var description: String { message }

    /// What the receiving person is told, in `language`.
    /// - Parameter language: The language to say it in.
    public func message(in language: HandoffLanguage) -> String {
        switch self {
        case .completed(.imported):
            return sentenceCatalog.sentence("receiver.completed.imported", in: language)
        case .completed(.validationFailed):
            return sentenceCatalog.sentence("receiver.completed.validationFailed", in: language)
        case .completed(.declined):
            return sentenceCatalog.sentence("receiver.completed.declined", in: language)
        case .completed(.storeFailed):
            return sentenceCatalog.sentence("receiver.completed.storeFailed", in: language)
        case .completed(.cancelled):
            return sentenceCatalog.sentence("receiver.completed.cancelled", in: language)
        case .ended(let end):
            return sentenceCatalog.sentence("receiver.ended", .text(Self.endedMessage(end, in: language)), in: language)
        }
    }

    private static func endedMessage(_ end: SessionEnd, in language: HandoffLanguage) -> String {
        switch end {
        case .cancelled(by: .local): sentenceCatalog.sentence("outcome.cancelledLocally", in: language)
        case .cancelled(by: .peer): sentenceCatalog.sentence("receiver.ended.cancelledByPeer", in: language)
        case .rejected(by: .local): sentenceCatalog.sentence("receiver.ended.rejectedLocally", in: language)
        case .rejected(by: .peer): sentenceCatalog.sentence("receiver.ended.rejectedByPeer", in: language)
        case .contested: HandoffError.anotherDeviceJoined.message(for: .receiver, in: language)
        case .storeUnavailable(let party): (party == .local ? HandoffError.storeUnavailable : .peerStoreUnavailable).message(for: .receiver, in: language)
        case .notAuthenticated(by: .local): HandoffError.notAuthenticated.message(for: .receiver, in: language)
        case .notAuthenticated(by: .peer): HandoffError.peerNotAuthenticated.message(for: .receiver, in: language)
        case .expired: sentenceCatalog.sentence("receiver.ended.expired", in: language)
        case .failed(let error): sentenceCatalog.sentence("outcome.failed", .text(error.message(for: .receiver, in: language)), in: language)
        }
    }
}
