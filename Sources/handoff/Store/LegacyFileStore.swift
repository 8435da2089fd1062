import AccountHandoff
import Foundation

/// The version-1 file store behind ``ReceiverStore`` (link-ID conflicts only).
struct LegacyFileStore: ReceiverStore {
    let store: AccountStore

    var location: String { store.directory.path }

    func checkUsable() throws(CLIError) {}

    func conflicts(with account: AccountMetadata) throws(CLIError) -> [StoredAccount] {
        guard store.contains(account.linkID) else { return [] }
        let existing = (try? AccountRecord.load(store.metadataURL(account.linkID).path)) ?? account
        return [StoredAccount(localID: account.linkID.description, metadata: existing)]
    }

    func importer(_ choice: ImportChoice, console: Console) -> any AccountImporter {
        LegacyImporter(store: store, replace: choice == .replace, console: console)
    }
}

private struct LegacyImporter: AccountImporter {
    let store: AccountStore
    let replace: Bool
    let console: Console

    func importAccount(_ account: ImportedAccount) async -> ReceiptStatus {
        defer { account.credential.wipe() }
        do {
            let saved = try store.save(account, replace: replace, now: Date())
            console.line("Stored the account in \(saved.path) (mode 0600; the credential file stands in for the Keychain).")
            return .imported
        } catch {
            console.error("The account could not be stored in \(store.directory.path); the import is declined.")
            return .declined
        }
    }
}
