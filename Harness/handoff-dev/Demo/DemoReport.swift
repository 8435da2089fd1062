#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HandoffCLI
import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import Foundation

/// The end of the demo: what the receiver stored, with the password redacted, checked against
/// what was sent.
enum DemoReport {
    static func showImported(files: DemoFiles, store: URL, keepStore: Bool, console: Console) throws(CLIError) {
        let opened: ReferenceAccountStore
        do { opened = try ReferenceAccountStore.open(at: store) } catch {
            throw CLIError("The receiver reported success but its store cannot be opened: \(error.description)", exitCode: .failure)
        }
        let accounts: [StoredAccount]
        do { accounts = try opened.listAccounts() } catch {
            throw CLIError("The receiver reported success but its store cannot be read: \(error.description)", exitCode: .failure)
        }
        guard let stored = accounts.first(where: { $0.metadata.linkID == files.account.linkID }) else {
            throw CLIError("The receiver reported success but its store has no account with the demo's link ID.", exitCode: .failure)
        }
        let credential: SecretBytes
        do { credential = try opened.credential(for: stored.id) } catch {
            throw CLIError("The receiver's store has the account but not its password: \(error.description)", exitCode: .failure)
        }
        defer { credential.wipe() }
        let same = credential.constantTimeEquals(files.password)
        let credentialFile = store.appendingPathComponent(ReferenceAccountStore.credentialsDirectoryName)
            .appendingPathComponent("account-\(stored.id.rawValue).credential")
        let mode = fileMode(of: credentialFile.path)
        console.line("Imported account, as stored by the receiver (local ID \(stored.id.rawValue)):")
        OfferDisplay.lines(stored.metadata).forEach { console.line($0) }
        console.line("  Password: (redacted)")
        console.line("  Credential file: mode \(mode), \(same ? "identical to the password that was sent" : "DIFFERENT from the password that was sent")")
        console.line("  Link ID preserved: \(stored.metadata.linkID == files.account.linkID && stored.metadata == files.account ? "yes" : "NO")")
        console.line(keepStore ? "The store is kept in \(store.path)." : "The demo's temporary store was removed.")
        guard same, stored.metadata == files.account else {
            throw CLIError("The stored account does not match what was sent; this is a bug, please report it.", exitCode: .failure)
        }
    }

    private static func fileMode(of path: String) -> String {
        var status = stat()
        return stat(path, &status) == 0 ? "0" + String(status.st_mode & 0o777, radix: 8) : "unknown"
    }
}
