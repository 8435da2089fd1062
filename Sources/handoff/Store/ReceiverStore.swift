import AccountHandoff

/// What the person chose to do with an offered account that collides with a stored one.
enum ImportChoice: Equatable, Sendable {
    /// No stored account collides: add it.
    case add
    /// Replace the stored account (same identity).
    case replace
    /// Keep the stored account and add the new one beside it (a new local ID, the same link ID).
    case keepBoth
}

/// An account already on this device, as the person sees it next to the offered one.
struct StoredAccount: Sendable {
    /// The device's local identifier of the account.
    let localID: String
    let metadata: AccountMetadata
}

/// The receive flow's view of the device's account store.
protocol ReceiverStore: Sendable {
    /// Where the store is, for sentences.
    var location: String { get }
    /// Checks, before any password travels, that the store can take an import.
    ///
    /// - Throws: ``CLIError`` with a sentence saying what is wrong and how to fix it.
    func checkUsable() throws(CLIError)
    /// Stored accounts the offered one collides with: the same link ID, or the same address
    /// on the same server.
    func conflicts(with account: AccountMetadata) throws(CLIError) -> [StoredAccount]
    /// The importer that stores a delivered account as `choice` says and reports the receipt.
    func importer(_ choice: ImportChoice, console: Console) -> any AccountImporter
}
