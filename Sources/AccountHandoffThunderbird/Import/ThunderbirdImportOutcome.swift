import AccountHandoff
import AccountHandoffImport

/// How an import into a Thunderbird profile ended. Exactly one per prepared import.
public enum ThunderbirdImportOutcome: Hashable, Sendable {
    /// Checked with the mail server (unless validation was off) and written.
    case imported(ThunderbirdImportedAccount)
    /// The mail server did not accept the account; nothing was written.
    case validationFailed(ValidationFailure, account: AccountMetadata)
    /// The person cancelled while the account was being checked; nothing was written.
    case cancelled
    /// The import could not go on (see ``ImportError``); nothing was written.
    case declined(ImportError)
    /// Writing the profile failed; everything written was undone.
    case failed(ThunderbirdProfileError, profile: ThunderbirdProfile)
    /// Writing failed and undoing it failed too; the journal in the profile says what to put
    /// back, and the next import (or check) of the profile does so.
    case rollbackPending(ThunderbirdProfileError, profile: ThunderbirdProfile)

    /// The receipt the receiving device sends back (Spec 3.6).
    public var receiptStatus: ReceiptStatus {
        switch self {
        case .imported: .imported
        case .validationFailed(.cancelled, _), .cancelled: .cancelled
        case .validationFailed: .validationFailed
        case .declined: .declined
        case .failed, .rollbackPending: .storeFailed
        }
    }

    /// Whole sentences for the receiving person: what happened to the profile and what to do.
    public var message: String {
        switch self {
        case .imported(let record):
            return record.message
        case .validationFailed(let failure, let account):
            return failure.message(for: account)
        case .cancelled:
            return "Checking the account with its mail server was cancelled, so the Thunderbird profile was left unchanged."
        case .declined(let error):
            return ImportOutcome.declined(.failed(error)).message
        case .failed(let error, let profile):
            return "The account could not be written into the Thunderbird profile \(profile.name), so the profile was left unchanged. \(error.description)"
        case .rollbackPending(let error, let profile):
            return "Writing the account into the Thunderbird profile \(profile.name) failed, and undoing it failed too: \(error.description) Fix that before starting Thunderbird; the next import into the profile puts its files back as they were."
        }
    }
}

/// The account an import wrote into a profile.
public struct ThunderbirdImportedAccount: Hashable, Sendable {
    /// The account as written.
    public let account: AccountMetadata
    /// Its key in the profile's preferences (`account3`).
    public let accountKey: String
    /// The address of the account it replaced; `nil` when it was added.
    public let replacedAddress: String?
    /// The profile that holds it now.
    public let profile: ThunderbirdProfile
    /// Whether the mail server accepted the password before the account was written.
    public let checkedWithServer: Bool

    /// Says which profile holds the account now and what Thunderbird does with it.
    public var message: String {
        let written = replacedAddress.map { "replaced the account \($0) in" } ?? "was added to"
        let check = checkedWithServer
            ? "The mail server accepted the password."
            : "Its mail server was not asked whether the password works (validation was turned off)."
        return "The account \(account.emailAddress) \(written) the Thunderbird profile \(profile.name) (\(profile.directory.path)). \(check) Thunderbird shows it the next time it starts; set up its outgoing (SMTP) server there, since a transfer carries only the incoming (IMAP) settings."
    }
}
