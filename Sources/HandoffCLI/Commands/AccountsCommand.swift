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
            console.line(sentenceCatalog.sentence("accounts.noStore", .text(directory.path), in: .cli))
            return .success
        }
        let accounts: [StoredAccountListing]
        do {
            accounts = try store.listAccounts().map { StoredAccountListing(id: $0.id.rawValue, metadata: $0.metadata) }
        } catch {
            throw CLIError(sentenceCatalog.sentence("accounts.unreadable", .text(directory.path), .text(error.sentence(in: .cli)), in: .cli), exitCode: .failure)
        }
        console.line(accounts.isEmpty ? sentenceCatalog.sentence("accounts.none", .text(directory.path), in: .cli)
                                     : sentenceCatalog.sentence("accounts.header", .text(directory.path), .number(accounts.count), in: .cli))
        for account in accounts.sorted(by: { $0.id < $1.id }) {
            console.line(sentenceCatalog.sentence("accounts.localID", .text(account.id), in: .cli))
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
