/// The recovery procedure behind ``ImportCoordinator/recover()``.
struct Recovery {
    let metadataStore: any AccountMetadataStore
    let credentialStore: any CredentialStore

    func run() throws(ImportError) -> RecoveryReport {
        var report = RecoveryReport()
        let lease: ImportLease?
        do { lease = try metadataStore.acquireRecoveryLease() } catch { throw .metadataStore(error) }
        guard let lease else {
            report.skippedBecauseImportIsRunning = true
            return report
        }
        defer { lease.release() }

        // 1. Roll committed imports forward. A pending activation whose staged item is gone
        //    was activated before the crash: staged items disappear only by activation, or by
        //    discard of an item no commit refers to.
        let staged = try credentials { () throws(CredentialStoreError) in try credentialStore.stagedCredentials() }
        for pending in try metadata({ () throws(AccountStoreError) in try metadataStore.pendingActivations() }) {
            if staged.contains(pending.credential) {
                try credentials { () throws(CredentialStoreError) in try credentialStore.activate(pending.credential, for: pending.account) }
                report.completedActivations.append(pending.account)
            }
            try metadata { () throws(AccountStoreError) in try metadataStore.finishActivation(pending) }
        }

        // 2. Every staged item left now belongs to an import that never committed.
        for leftover in try credentials({ () throws(CredentialStoreError) in try credentialStore.stagedCredentials() }) {
            try credentials { () throws(CredentialStoreError) in try credentialStore.discard(leftover) }
            report.discardedStagedCredentials.append(leftover)
        }

        // 3. Credentials must belong to stored accounts, and stored accounts need one.
        let accounts = Set(try metadata { () throws(AccountStoreError) in try metadataStore.accounts() }.map(\.id))
        let withCredential = Set(try credentials { () throws(CredentialStoreError) in try credentialStore.accountsWithCredential() })
        for orphan in withCredential.subtracting(accounts).sorted() {
            try credentials { () throws(CredentialStoreError) in try credentialStore.deleteCredential(of: orphan) }
            report.removedOrphanCredentials.append(orphan)
        }
        report.accountsWithoutCredential = accounts.subtracting(withCredential).sorted()
        return report
    }

    private func metadata<T>(_ body: () throws(AccountStoreError) -> T) throws(ImportError) -> T {
        do { return try body() } catch { throw .metadataStore(error) }
    }

    private func credentials<T>(_ body: () throws(CredentialStoreError) -> T) throws(ImportError) -> T {
        do { return try body() } catch { throw .credentialStore(error) }
    }
}
