import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import AccountHandoffSecretService
import AccountHandoffTestSupport
import Foundation
import ThrowawaySecretService

/// The keyring every `handoff` child of this test process uses: the process's shared
/// throwaway Secret Service (its own session bus and an unlocked gnome-keyring), started
/// before the first child and stopped when the process exits. Its bus address is put into this process's environment,
/// which every child inherits, so no child (and no libsecret call here) ever reaches the
/// person's own session bus or keyring.
enum CLIKeyring {
    /// Starts the keyring if needed; call before starting any `handoff` child.
    ///
    /// - Throws: ``ThrowawaySecretServiceUnavailable``; CI installs gnome-keyring and dbus.
    @discardableResult
    static func service() throws -> ThrowawaySecretService {
        try ThrowawaySecretService.sharedForThisProcess()
    }

    /// The password the store in `directory` keeps for `account`: from the keyring or its
    /// files, as the store's `credential-store` record says (the pending staged item while an
    /// activation is unfinished).
    static func credential(of account: LocalAccountID, in directory: URL, opened: ReferenceAccountStore) throws -> SecretBytes {
        let record = (try? String(contentsOf: directory.appendingPathComponent("credential-store"), encoding: .utf8)) ?? "files"
        let words = record.split(whereSeparator: \.isWhitespace)
        guard words.first == "keyring", words.count == 2 else { return try opened.credential(for: account) }
        try service()
        let keyring = SecretServiceCredentialStore(namespace: String(words[1]))
        let pending = try opened.pendingActivations().first { $0.account == account }
        if let pending, let staged = try? keyring.credential(staged: pending.credential) { return staged }
        return try keyring.credential(of: account)
    }

    /// The staged credentials the store in `directory` holds, in the keyring or its files
    /// (read on the I/O pool).
    static func stagedCredentials(in directory: URL) async throws -> [StagedCredential] {
        try await blocking { try stagedCredentialsNow(in: directory) }
    }

    private static func stagedCredentialsNow(in directory: URL) throws -> [StagedCredential] {
        let opened = try ReferenceAccountStore.open(at: directory)
        let record = (try? String(contentsOf: directory.appendingPathComponent("credential-store"), encoding: .utf8)) ?? "files"
        let words = record.split(whereSeparator: \.isWhitespace)
        guard words.first == "keyring", words.count == 2 else { return try opened.stagedCredentials() }
        try service()
        return try SecretServiceCredentialStore(namespace: String(words[1])).stagedCredentials()
    }
}
