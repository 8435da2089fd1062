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

    /// Whole sentences for the receiving person, in English: what happened to the profile and what to do.
    public var message: String { message(in: .english) }

    /// Whole sentences for the receiving person: what happened to the profile and what to do.
    /// - Parameter language: The language to say it in.
    public func message(in language: HandoffLanguage) -> String {
        switch self {
        case .imported(let record):
            record.message(in: language)
        case .validationFailed(let failure, let account):
            failure.message(for: account, in: language)
        case .cancelled:
            sentenceCatalog.sentence("outcome.cancelled", in: language)
        case .declined(let error):
            ImportOutcome.declined(.failed(error)).message(in: language)
        case .failed(let error, let profile):
            sentenceCatalog.sentence("outcome.failed", .text(profile.name), .text(error.sentence(in: language)), in: language)
        case .rollbackPending(let error, let profile):
            sentenceCatalog.sentence("outcome.rollbackPending", .text(profile.name), .text(error.sentence(in: language)), in: language)
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

    /// Says which profile holds the account now and what Thunderbird does with it, in English.
    public var message: String { message(in: .english) }

    /// Says which profile holds the account now and what Thunderbird does with it.
    /// - Parameter language: The language to say it in.
    public func message(in language: HandoffLanguage) -> String {
        let check = checkedWithServer
            ? sentenceCatalog.sentence("outcome.checked", in: language)
            : sentenceCatalog.sentence("outcome.notChecked", in: language)
        let address = SentenceArgument.text(account.emailAddress), name = SentenceArgument.text(profile.name)
        let folder = SentenceArgument.text(profile.directory.path)
        guard let replacedAddress else {
            return sentenceCatalog.sentence("outcome.imported.added", address, name, folder, .text(check), in: language)
        }
        return sentenceCatalog.sentence("outcome.imported.replaced", address, .text(replacedAddress), name, folder, .text(check), in: language)
    }
}
