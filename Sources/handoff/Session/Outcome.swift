import AccountHandoff
import Foundation

/// Sentences for people about payload errors and session outcomes, and the exit code for each.
enum Describe {
    /// Why a transfer code is invalid, and what to do.
    static func payloadError(_ error: HandoffError) -> String {
        switch error {
        case .badMagic, .unsupportedVersion, .wrongIntent, .expiryTooFar, .nonCanonicalEncoding:
            return error.description
        case .malformed(.length):
            return "it is longer than any AccountHandoff code; copy only the code, starting with AH:."
        case .malformed(.digits):
            return "after AH: it must have only digits, in a length the code format produces; copy the whole code again."
        case .malformed(let field):
            return "its \(field.rawValue) field is truncated or malformed; copy the whole code, starting with AH:, again."
        case .rendezvousTooLong:
            return error.description + " Scan the code shown by the sending device again."
        default:
            return error.description
        }
    }

    /// What an outcome means for the person on this side, and the exit code.
    static func outcome(_ outcome: TransferOutcome, role: Role) -> (message: String, exitCode: ExitCode) {
        let other = role == .sender ? "receiving" : "sending"
        switch outcome {
        case .completed(.imported):
            return (role == .sender ? "Done: the receiving device imported the account." : "Done: the account was imported.", .success)
        case .completed(.declined):
            return (role == .sender
                    ? "The receiving device declined the import (it keeps its existing account); nothing changed there."
                    : "The import was declined; the existing account was kept unchanged.", .rejected)
        case .completed(.validationFailed):
            return ("The receiving device could not validate the account, so it discarded it; check the account settings and try again.", .failure)
        case .cancelled(by: .local):
            return ("You cancelled the transfer; nothing was imported.", .cancelled)
        case .cancelled(by: .peer):
            return ("The \(other) device cancelled the transfer; nothing was imported.", .cancelled)
        case .rejected(by: .local):
            return ("You rejected the transfer; nothing was imported. If the codes differed, someone else may have scanned the code: start a new transfer.", .rejected)
        case .rejected(by: .peer):
            return ("The \(other) device rejected the transfer; nothing was imported. Start a new transfer if you want to try again.", .rejected)
        case .contested:
            return (HandoffError.anotherDeviceJoined.description, .contested)
        case .expired:
            return ("The transfer expired before it finished; start a new transfer on the sending device.", .expired)
        case .failed(.transportLost):
            return ("The transfer failed: \(HandoffError.transportLost.description)", .failure)
        case .failed(let error):
            return ("The transfer failed (\(error.identifier)): \(error.description) Start a new transfer on the sending device.", .failure)
        }
    }

    /// Which side of the transfer this process is.
    enum Role { case sender, receiver }

    /// `2 min 5 s`, `45 s`, for time left or passed.
    static func duration(_ seconds: Int) -> String {
        let value = abs(seconds)
        if value >= 60 { return "\(value / 60) min \(value % 60) s" }
        return "\(value) s"
    }

    /// The account as people read it, one field per line, indented.
    static func account(_ metadata: AccountMetadata) -> [String] {
        [
            "  Display name: \(metadata.displayName.isEmpty ? "(none)" : metadata.displayName)",
            "  Email address: \(metadata.emailAddress)",
            "  Username: \(metadata.username)",
            "  IMAP server: \(metadata.imapHost):\(metadata.imapPort) (\(metadata.imapSecurity == .tls ? "TLS" : "STARTTLS"))",
            "  Account link ID: \(metadata.linkID)",
        ]
    }
}
