#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// The end of the demo: what the receiver stored, with the password redacted, checked against
/// what was sent.
enum DemoReport {
    static func showImported(files: DemoFiles, store: URL, keepStore: Bool, console: Console) throws(CLIError) {
        let accountStore = AccountStore(directory: store)
        let linkID = files.account.linkID
        let stored: AccountMetadata
        do {
            stored = try AccountRecord.load(accountStore.metadataURL(linkID).path)
        } catch {
            throw CLIError("The receiver reported success but its store has no readable account: \(error.message)", exitCode: .failure)
        }
        let credentialPath = accountStore.credentialURL(linkID).path
        guard let credential = try PasswordFile.read(credentialPath, maximumByteCount: HandoffSender.maximumCredentialByteCount, console: console) else {
            throw CLIError("The receiver's credential file \(credentialPath) is empty.", exitCode: .failure)
        }
        defer { credential.wipe() }
        var status = stat()
        let mode = stat(credentialPath, &status) == 0 ? "0" + String(status.st_mode & 0o777, radix: 8) : "unknown"
        let same = credential.constantTimeEquals(files.password)
        console.line("Imported account, as stored by the receiver:")
        OfferDisplay.lines(stored).forEach { console.line($0) }
        console.line("  Password: (redacted)")
        console.line("  Credential file: mode \(mode), \(same ? "identical to the password that was sent" : "DIFFERENT from the password that was sent")")
        console.line("  Link ID preserved: \(stored == files.account ? "yes" : "NO")")
        console.line(keepStore ? "The store is kept in \(store.path)." : "The demo's temporary store was removed.")
        guard same, stored == files.account else {
            throw CLIError("The stored account does not match what was sent; this is a bug, please report it.", exitCode: .failure)
        }
    }
}
