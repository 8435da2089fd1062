extension SenderOutcome: CustomStringConvertible {
    /// What the sending person is told: a whole sentence, true whatever the receiving device
    /// did, that says what to do next (Spec 6.4.1). English.
    public var message: String {
        switch self {
        case .completed(.imported):
            return "Done: the receiving device imported the account."
        case .completed(.validationFailed):
            // The receipt carries no reason (Spec 3.6): the server may not have been found or
            // reached, or its certificate not trusted, so no login was tried at all.
            return "The receiving device could not check the account with its mail server, so it did not keep it; its screen says what failed (the server not found or not reachable, a certificate it does not trust, or a refused login). Fix that, then start a new transfer."
        case .completed(.declined):
            return "The receiving device declined the import; nothing was changed there."
        case .completed(.storeFailed):
            return "The receiving device could not store the account, so nothing was changed there; ask its owner to check its account store or keychain, then start a new transfer."
        case .completed(.cancelled):
            return "The person at the receiving device cancelled the import, so the account was not kept there; start a new transfer if you want to try again."
        case .deliveredUnconfirmed(let end):
            return "The password was sent to the receiving device, but \(Self.unconfirmedReason(end)), so this device cannot tell whether it was imported. Check on the receiving device; if it was not the device you meant, change the account's password."
        case .ended(let end):
            return Self.endedMessage(end) + " The password was not sent."
        }
    }

    /// The sentence, as the description.
    public var description: String { message }

    private static func unconfirmedReason(_ end: SessionEnd) -> String {
        switch end {
        case .cancelled(by: .local): "you stopped waiting for its confirmation"
        case .cancelled(by: .peer): "it cancelled while the password was on its way (it reports that it did not import it)"
        case .rejected(by: .local): "you stopped the transfer"
        case .rejected(by: .peer): "it rejected the transfer while the password was on its way (it reports that it did not import it)"
        case .contested: "it reported another device in the transfer"
        case .storeUnavailable(by: .local): "you stopped waiting"
        case .storeUnavailable(by: .peer): "it reported that it cannot store the account"
        case .notAuthenticated: "its person could not be authenticated"
        case .expired: "its confirmation did not arrive in time"
        case .failed(.transportLost): "the connection was lost before its confirmation arrived"
        case .failed: "its confirmation was malformed"
        }
    }

    static func endedMessage(_ end: SessionEnd) -> String {
        switch end {
        case .cancelled(by: .local): "You cancelled the transfer."
        case .cancelled(by: .peer): "The receiving device cancelled the transfer."
        case .rejected(by: .local): "You stopped the transfer; start a new transfer if you want to try again."
        case .rejected(by: .peer): "The person at the receiving device rejected the transfer; start a new transfer if you want to try again."
        case .contested: HandoffError.anotherDeviceJoined.message(for: .sender)
        case .storeUnavailable(let party): (party == .local ? HandoffError.storeUnavailable : .peerStoreUnavailable).message(for: .sender)
        case .notAuthenticated(by: .local): HandoffError.notAuthenticated.message(for: .sender)
        case .notAuthenticated(by: .peer): HandoffError.peerNotAuthenticated.message(for: .sender)
        case .expired: "The transfer expired before it finished; start a new transfer."
        case .failed(let error): "The transfer failed. " + error.message(for: .sender)
        }
    }
}

extension ReceiverOutcome: CustomStringConvertible {
    /// What the receiving person is told: a whole sentence that says what to do next
    /// (Spec 6.4.1). English.
    public var message: String {
        switch self {
        case .completed(.imported):
            return "Done: the account was imported."
        case .completed(.validationFailed):
            return "The account could not be checked with its mail server, so it was not kept; any account you had is unchanged. Fix what the check found, then ask for a new code."
        case .completed(.declined):
            return "The account was not imported; any account you had is unchanged."
        case .completed(.storeFailed):
            return "The account could not be stored on this device, so it was not imported; any account you had is unchanged. Check the account store or keychain, then ask for a new code."
        case .completed(.cancelled):
            return "You cancelled the import, so the account was not kept; any account you had is unchanged."
        case .ended(let end):
            return Self.endedMessage(end) + " Nothing was imported."
        }
    }

    /// The sentence, as the description.
    public var description: String { message }

    private static func endedMessage(_ end: SessionEnd) -> String {
        switch end {
        case .cancelled(by: .local): "You cancelled the transfer."
        case .cancelled(by: .peer): "The sending device cancelled the transfer."
        case .rejected(by: .local): "You declined the transfer; ask for a new code if you want to try again."
        case .rejected(by: .peer): "The sending device stopped the transfer (its person declined, or the code typed there did not match the one on this screen); if you did not expect that, you may have scanned another device's code. Ask for a new code to try again."
        case .contested: HandoffError.anotherDeviceJoined.message(for: .receiver)
        case .storeUnavailable(let party): (party == .local ? HandoffError.storeUnavailable : .peerStoreUnavailable).message(for: .receiver)
        case .notAuthenticated(by: .local): HandoffError.notAuthenticated.message(for: .receiver)
        case .notAuthenticated(by: .peer): HandoffError.peerNotAuthenticated.message(for: .receiver)
        case .expired: "The code expired before the transfer finished; ask the sending person for a new code."
        case .failed(let error): "The transfer failed. " + error.message(for: .receiver)
        }
    }
}
