import AccountHandoff
import AccountHandoffReferenceStore
import Foundation

/// `handoff accounts [--store DIR]`: lists the accounts in a receiver's store, never a secret.
enum AccountsCommand {
    static let specification = CommandManual.accounts.specification

    static func run(_ arguments: [String], console: Console) throws(CLIError) -> ExitCode {
        let parsed = try specification.parse(arguments)
        let directory = try StorePath(option: parsed.value("--store"))
        guard let store = try ReceiverStore.openForListing(directory, requested: try CredentialChoice.requested(parsed, command: "accounts"),
                                                           console: console) else {
            console.line("There is no store at \(directory.path) yet; 'handoff receive' creates it.")
            return .success
        }
        let accounts: [StoredAccountListing]
        do {
            accounts = try store.listAccounts().map { StoredAccountListing(id: $0.id.rawValue, metadata: $0.metadata) }
        } catch {
            throw CLIError("The store \(directory.path) cannot be read: \(error.description)", exitCode: .failure)
        }
        console.line(accounts.isEmpty ? "No accounts in \(directory.path)." : "Accounts in \(directory.path) (\(accounts.count)); passwords are never shown:")
        for account in accounts.sorted(by: { $0.id < $1.id }) {
            console.line("  Local ID \(account.id):")
            OfferDisplay.lines(account.metadata).forEach { console.line($0) }
        }
        return .success
    }
}

/// One stored account as listed.
private struct StoredAccountListing {
    let id: String
    let metadata: AccountMetadata
}
