// Only where the import layer is built (the Fuzz/ package links the kit without it).
#if canImport(AccountHandoffImport)
import AccountHandoff
import AccountHandoffImport
import Foundation

/// Account metadata and credentials in memory, for tests of an app's import with
/// `ImportCoordinator`: both of its stores in one object, with the same contract as the
/// durable ones (a commit checks its precondition and the link ID, a staged credential is
/// activated once, recovery waits for imports). Credentials stay in guarded memory
/// (``AccountHandoff/SecretBytes``) and are wiped when replaced, deleted or discarded.
///
/// ```swift
/// let store = InMemoryAccountStore()
/// let importer = ImportCoordinator(metadataStore: store, credentialStore: store, validator: validator)
/// ```
public final class InMemoryAccountStore: AccountMetadataStore, CredentialStore, @unchecked Sendable {
    // Safety of @unchecked Sendable: every mutable property is touched only under `lock`.
    private let lock = NSLock()
    private var stored: [LocalAccountID: StoredAccount] = [:]
    private var pending: Set<PendingActivation> = []
    private var staged: [StagedCredential: SecretBytes] = [:]
    private var active: [LocalAccountID: SecretBytes] = [:]
    private var imports = 0
    private var nextItem = 0

    /// An empty store.
    public init() {}

    deinit {
        staged.values.forEach { $0.wipe() }
        active.values.forEach { $0.wipe() }
    }

    /// Whether `account`'s active credential is exactly `bytes` (compared in constant time).
    public func credential(of account: LocalAccountID, equals bytes: [UInt8]) -> Bool {
        lock.withLock { active[account]?.constantTimeEquals(bytes) ?? false }
    }

    // MARK: AccountMetadataStore

    /// Always writable.
    public func checkMetadataWritable() throws(AccountStoreError) {}

    /// Every stored account, ordered by local ID.
    public func accounts() throws(AccountStoreError) -> [StoredAccount] {
        lock.withLock { stored.values.sorted { $0.id < $1.id } }
    }

    /// Applies `change` if `precondition` holds on the accounts now, and records its pending
    /// activation.
    ///
    /// - Throws: ``AccountHandoffImport/AccountStoreError/changedMeanwhile``,
    ///   ``AccountHandoffImport/AccountStoreError/linkIDAlreadyStored`` or
    ///   ``AccountHandoffImport/AccountStoreError/accountNotFound(_:)``; nothing changes then.
    public func commit(_ change: AccountChange, if precondition: ([StoredAccount]) -> Bool) throws(AccountStoreError) {
        lock.lock()
        defer { lock.unlock() }
        guard precondition(stored.values.sorted { $0.id < $1.id }) else { throw .changedMeanwhile }
        switch change {
        case .add(let id, let metadata, _):
            guard stored[id] == nil, !stored.values.contains(where: { $0.metadata.linkID == metadata.linkID }) else {
                throw .linkIDAlreadyStored
            }
            stored[id] = StoredAccount(id: id, metadata: metadata, revision: 1)
        case .replace(let id, let metadata, _):
            guard let old = stored[id] else { throw .accountNotFound(id) }
            guard !stored.values.contains(where: { $0.id != id && $0.metadata.linkID == metadata.linkID }) else {
                throw .linkIDAlreadyStored
            }
            stored[id] = StoredAccount(id: id, metadata: metadata, revision: old.revision + 1)
        }
        pending.insert(change.pendingActivation)
    }

    /// The committed changes whose credential was not activated yet.
    public func pendingActivations() throws(AccountStoreError) -> [PendingActivation] {
        lock.withLock { pending.sorted { $0.account < $1.account } }
    }

    /// Records that `activation` finished.
    public func finishActivation(_ activation: PendingActivation) throws(AccountStoreError) {
        _ = lock.withLock { pending.remove(activation) }
    }

    /// A lease shared with other imports, until released.
    public func acquireImportLease() throws(AccountStoreError) -> ImportLease {
        lock.withLock { imports += 1 }
        return ImportLease { [weak self] in self?.lock.withLock { self?.imports -= 1 } }
    }

    /// A lease for recovery, or `nil` while an import holds one.
    public func acquireRecoveryLease() throws(AccountStoreError) -> ImportLease? {
        lock.withLock { imports == 0 } ? ImportLease {} : nil
    }

    // MARK: CredentialStore

    /// Always writable.
    public func checkCredentialsWritable() throws(CredentialStoreError) {}

    /// Copies `credential` into a fresh staged item.
    ///
    /// - Throws: ``AccountHandoffImport/CredentialStoreError/emptyCredential`` for no bytes;
    ///   ``AccountHandoffImport/CredentialStoreError/failed(_:)`` (`ENOMEM`) when no guarded
    ///   memory is left for the copy.
    public func stage(_ credential: SecretBytes) throws(CredentialStoreError) -> StagedCredential {
        guard credential.count > 0 else { throw .emptyCredential }
        let copy: SecretBytes
        do { copy = try credential.withUnsafeBytes { bytes throws(HandoffError) in try SecretBytes(copying: bytes) } } catch {
            throw .failed(StoreFailure(operation: "stage", domain: .posix, code: ENOMEM))
        }
        return lock.withLock {
            nextItem += 1
            let item = StagedCredential(name: "staged-\(nextItem)")!
            staged[item] = copy
            return item
        }
    }

    /// Makes `item` the active credential of `account`; the previous one is wiped.
    ///
    /// - Throws: ``AccountHandoffImport/CredentialStoreError/credentialNotFound`` when the item
    ///   is gone.
    public func activate(_ item: StagedCredential, for account: LocalAccountID) throws(CredentialStoreError) {
        lock.lock()
        defer { lock.unlock() }
        guard let credential = staged.removeValue(forKey: item) else { throw .credentialNotFound }
        active.updateValue(credential, forKey: account)?.wipe()
    }

    /// Wipes and forgets a staged item; a missing one is fine.
    public func discard(_ item: StagedCredential) throws(CredentialStoreError) {
        lock.withLock { staged.removeValue(forKey: item) }?.wipe()
    }

    /// The staged items, in name order.
    public func stagedCredentials() throws(CredentialStoreError) -> [StagedCredential] {
        lock.withLock { staged.keys.sorted() }
    }

    /// The accounts with an active credential, in ID order.
    public func accountsWithCredential() throws(CredentialStoreError) -> [LocalAccountID] {
        lock.withLock { active.keys.sorted() }
    }

    /// Wipes and forgets `account`'s credential; a missing one is fine.
    public func deleteCredential(of account: LocalAccountID) throws(CredentialStoreError) {
        lock.withLock { active.removeValue(forKey: account) }?.wipe()
    }
}
#endif
