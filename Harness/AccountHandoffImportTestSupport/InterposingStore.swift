import AccountHandoff
import AccountHandoffImport
import AccountHandoffReferenceStore
import Foundation

/// The real reference store (and, for ``CredentialBackend/keyring(namespace:)``, the real
/// Secret Service store as its credential store), wrapped so an ``Interposer`` runs before
/// and after the calls the transaction makes and at every step inside the stores. A fault returned by the interposer
/// makes the call fail with ``AccountHandoffImport/StoreFailure`` at that point: before the
/// real call (nothing happened) or after it (it happened, yet the caller sees a failure).
package final class InterposingStore: AccountMetadataStore, CredentialStore, @unchecked Sendable {
    // Safety of @unchecked Sendable: `base` and `credentials` are Sendable; `interposer` is a Sendable closure.
    /// The real metadata store.
    package let base: ReferenceAccountStore
    /// The real credential store: `base` itself, or a Secret Service store.
    package let credentials: any CredentialStore
    private let interposer: Interposer

    /// Opens the reference store in `directory`, with credentials in `backend`, and
    /// `interposer` at every point.
    package init(directory: URL, backend: CredentialBackend = .files, interposer: @escaping Interposer) throws(AccountStoreError) {
        self.interposer = interposer
        self.base = try ReferenceAccountStore.open(at: directory, options: ReferenceStoreOptions()) { step in
            TransactionPoint(step).flatMap(interposer)
        }
        self.credentials = backend.credentialStore(base, hook: interposer)
    }

    // MARK: AccountMetadataStore

    package func checkMetadataWritable() throws(AccountStoreError) { try base.checkMetadataWritable() }
    package func accounts() throws(AccountStoreError) -> [StoredAccount] { try base.accounts() }

    package func commit(_ change: AccountChange, if precondition: ([StoredAccount]) -> Bool) throws(AccountStoreError) {
        try base.commit(change, if: precondition)
        if let fault = interposer(.commitAfter) { throw .failed(fault) }
    }

    package func pendingActivations() throws(AccountStoreError) -> [PendingActivation] { try base.pendingActivations() }

    package func finishActivation(_ pending: PendingActivation) throws(AccountStoreError) {
        try base.finishActivation(pending)
        if let fault = interposer(.finishAfter) { throw .failed(fault) }
    }

    package func acquireImportLease() throws(AccountStoreError) -> ImportLease { try base.acquireImportLease() }
    package func acquireRecoveryLease() throws(AccountStoreError) -> ImportLease? { try base.acquireRecoveryLease() }

    // MARK: CredentialStore

    package func checkCredentialsWritable() throws(CredentialStoreError) { try credentials.checkCredentialsWritable() }

    package func stage(_ credential: SecretBytes) throws(CredentialStoreError) -> StagedCredential {
        if let fault = interposer(.stageBefore) { throw .failed(fault) }
        let staged = try credentials.stage(credential)
        if let fault = interposer(.stageAfter) { throw .failed(fault) }
        return staged
    }

    package func activate(_ staged: StagedCredential, for account: LocalAccountID) throws(CredentialStoreError) {
        try credentials.activate(staged, for: account)
        if let fault = interposer(.activateAfter) { throw .failed(fault) }
    }

    package func discard(_ staged: StagedCredential) throws(CredentialStoreError) {
        if let fault = interposer(.discardBefore) { throw .failed(fault) }
        try credentials.discard(staged)
        if let fault = interposer(.discardAfter) { throw .failed(fault) }
    }

    package func stagedCredentials() throws(CredentialStoreError) -> [StagedCredential] { try credentials.stagedCredentials() }
    package func accountsWithCredential() throws(CredentialStoreError) -> [LocalAccountID] { try credentials.accountsWithCredential() }
    package func deleteCredential(of account: LocalAccountID) throws(CredentialStoreError) { try credentials.deleteCredential(of: account) }
}

/// A validator wrapped so the interposer runs when validation has returned (a kill point).
package struct InterposingValidator: AccountValidator {
    let base: any AccountValidator
    let interposer: Interposer

    package init(base: any AccountValidator, interposer: @escaping Interposer) {
        self.base = base
        self.interposer = interposer
    }

    package func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult {
        let result = await base.validate(account, credential: credential)
        _ = interposer(.validateAfter)
        return result
    }
}

/// An interposer that fails once, the first time `point` is reached.
package final class OneFault: @unchecked Sendable {
    // Safety of @unchecked Sendable: `fired` is only touched under `lock`.
    package let point: TransactionPoint
    package let failure: StoreFailure
    private let lock = NSLock()
    private var fired = false

    package init(at point: TransactionPoint) {
        self.point = point
        self.failure = StoreFailure(operation: "injected fault at \(point.rawValue)", domain: .posix, code: 5)  // EIO
    }

    /// Whether the fault has been injected.
    package var hasFired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return fired
    }

    package var interposer: Interposer {
        { [self] reached in
            guard reached == point else { return nil }
            lock.lock()
            defer { lock.unlock() }
            guard !fired else { return nil }
            fired = true
            return failure
        }
    }
}
