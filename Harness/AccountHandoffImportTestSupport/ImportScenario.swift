import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import Foundation

/// The imports the fault-injection and crash tests run, shared by the tests and the
/// `import-crash-probe` executable so both build the same offer and store.
package enum ImportScenario: String, CaseIterable, Sendable {
    /// An account with the offered link ID exists; the person replaces it.
    case replace
    /// No conflicting account exists.
    case add
    /// An account with the same address and server but another link ID exists; the person keeps both.
    case keepBoth
    /// Like ``replace``, but the delivered password is wrong, so validation fails.
    case validationFailure

    /// The offered account's link ID.
    package static let offeredLinkID = AccountLinkID(uuid: UUID(uuidString: "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162")!)
    /// The link ID of the stored account in ``keepBoth``.
    package static let otherLinkID = AccountLinkID(uuid: UUID(uuidString: "0D15EA5E-0000-4000-8000-00000000BEEF")!)
    /// The stored account's local ID.
    package static let oldAccountID = LocalAccountID(rawValue: "00000000-0000-4000-8000-0000000000a1")!
    /// The local ID an added account gets.
    package static let newAccountID = LocalAccountID(rawValue: "00000000-0000-4000-8000-0000000000b2")!
    /// The stored account's password (never checked against a server).
    package static let oldPassword = "old-password-of-the-stored-account"

    /// The account the sending device offers, on the given IMAP server.
    package static func offer(host: String, port: UInt16, user: String) throws(HandoffError) -> AccountMetadata {
        try AccountMetadata(linkID: offeredLinkID, displayName: "Ada (from the other device)", emailAddress: "ada@example.org",
                            username: user, imapHost: host, imapPort: port, imapSecurity: .tls)
    }

    /// The account stored before the import, if the scenario has one.
    package func oldAccount(host: String, port: UInt16, user: String) throws(HandoffError) -> AccountMetadata? {
        switch self {
        case .add: nil
        case .replace, .validationFailure:
            try AccountMetadata(linkID: Self.offeredLinkID, displayName: "Ada (old settings)", emailAddress: "ada@example.org",
                                username: "ada-old", imapHost: host, imapPort: port, imapSecurity: .tls)
        case .keepBoth:
            try AccountMetadata(linkID: Self.otherLinkID, displayName: "Ada (work)", emailAddress: "ADA@example.org",
                                username: "ada-work", imapHost: host, imapPort: port, imapSecurity: .tls)
        }
    }

    /// The person's answer to the conflict, if there is one.
    package var choice: ImportChoice? {
        switch self {
        case .add: nil
        case .replace, .validationFailure: .replace(Self.oldAccountID)
        case .keepBoth: .keepBoth
        }
    }

    /// Stores the old account (metadata and password) through the stores' own API.
    package static func seed(_ store: ReferenceAccountStore, credentials: (any CredentialStore)? = nil, id: LocalAccountID,
                             metadata: AccountMetadata, password: SecretBytes) throws {
        let credentials = credentials ?? store
        let staged = try credentials.stage(password)
        try store.commit(.add(id, metadata, credential: staged)) { _ in true }
        try credentials.activate(staged, for: id)
        try store.finishActivation(PendingActivation(account: id, credential: staged))
    }
}
