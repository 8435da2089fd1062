import AccountHandoff

/// The transaction behind ``PreparedImport/complete(with:)``, in this order:
///
/// 1. **Stage**: the credential is written under a fresh item name; nothing refers to it.
/// 2. **Validate**: the account logs in to its server. On failure the staged item is
///    discarded and nothing else was touched.
/// 3. **Commit** (the point of no return): one metadata transaction checks that the
///    conflicting accounts are still exactly those the person decided on, writes the
///    metadata (a new local ID when adding, the old one when replacing) and records the
///    staged item as the account's pending credential. Until this commits, the old account
///    is untouched; from the moment it commits, the new account is complete (its credential
///    is the staged item).
/// 4. **Activate**: the staged item becomes the account's active credential.
/// 5. **Finish**: the pending marker is cleared.
///
/// A failure reported by the commit is checked against the store before anything is
/// discarded, so a commit that landed is never undone by removing its credential.
struct ImportTransaction: Sendable {
    /// What the commit writes.
    enum Plan: Sendable {
        /// A new account under this local ID.
        case add(LocalAccountID)
        /// The stored account, replaced in place.
        case replace(StoredAccount)

        func change(_ metadata: AccountMetadata, _ staged: StagedCredential) -> AccountChange {
            switch self {
            case .add(let id): .add(id, metadata, credential: staged)
            case .replace(let old): .replace(old.id, metadata, credential: staged)
            }
        }

        var replaced: StoredAccount? {
            switch self {
            case .add: nil
            case .replace(let old): old
            }
        }

        /// Revision 1 for an added account; one more than before for a replaced one.
        var committedRevision: UInt64 {
            switch self {
            case .add: 1
            case .replace(let old): old.revision + 1
            }
        }
    }

    let metadataStore: any AccountMetadataStore
    let credentialStore: any CredentialStore
    let validator: any AccountValidator
    let offer: AccountMetadata
    let plan: Plan
    let fingerprint: [AccountRevision]

    /// Stages, validates and commits or rolls back; every store call runs on the
    /// ``AccountHandoff/BlockingIOPool``, the validation wherever its validator runs it.
    func run(_ credential: SecretBytes) async -> ImportOutcome {
        let staged: StagedCredential
        do {
            staged = try await BlockingIOPool.shared.run { [credentialStore] _ throws(CredentialStoreError) in
                try credentialStore.stage(credential)
            }
        } catch { return .declined(.failed(.credentialStore(error))) }

        let checkedWithServer: Bool
        switch await validator.validate(offer, credential: credential) {
        case .valid: checkedWithServer = true
        case .notChecked: checkedWithServer = false
        case .failed(let failure):
            await BlockingIOPool.shared.run { [self] _ in discardUncommitted(staged) }
            return .validationFailed(failure, account: offer)
        }
        return await BlockingIOPool.shared.run { [self] cancellation in
            commitAndActivate(staged, checkedWithServer: checkedWithServer, cancelled: cancellation.isCancelled)
        }
    }

    /// Steps 3 to 5 (blocks): commits `staged` with the metadata, unless the import was
    /// cancelled, then activates it.
    private func commitAndActivate(_ staged: StagedCredential, checkedWithServer: Bool, cancelled: Bool) -> ImportOutcome {
        // The person cancelled while the server was being checked: the commit is the point of
        // no return, so stop before it.
        if cancelled {
            discardUncommitted(staged)
            return .declined(.cancelledByPerson)
        }

        let change = plan.change(offer, staged)
        let expected = fingerprint
        do {
            try metadataStore.commit(change) { current in
                ConflictDetector.fingerprint(for: offer, among: current) == expected
            }
        } catch {
            switch landed(change) {
            case true?:
                break  // reported as failed, yet committed: go on with the new account
            case false?:
                discardUncommitted(staged)
                return .declined(.failed(Self.importError(forCommitFailure: error)))
            case nil:
                return .declined(.failed(.commitUncertain(error)))  // recovery settles it
            }
        }

        let committed = StoredAccount(id: change.account, metadata: offer, revision: plan.committedRevision)
        return .imported(ImportedAccountRecord(account: committed, replaced: plan.replaced,
                                               activation: activate(change.pendingActivation),
                                               checkedWithServer: checkedWithServer))
    }

    /// Whether the commit is in the store; `nil` when the store cannot say.
    private func landed(_ change: AccountChange) -> Bool? {
        do { return try metadataStore.pendingActivations().contains(change.pendingActivation) } catch { return nil }
    }

    private func activate(_ pending: PendingActivation) -> ImportedAccountRecord.Activation {
        do { try credentialStore.activate(pending.credential, for: pending.account) } catch {
            return .deferredToRecovery(.credentialStore(error))
        }
        do { try metadataStore.finishActivation(pending) } catch { return .deferredToRecovery(.metadataStore(error)) }
        return .complete
    }

    /// Removes a staged item no commit refers to; if that fails, recovery removes it later.
    private func discardUncommitted(_ staged: StagedCredential) {
        try? credentialStore.discard(staged)
    }

    private static func importError(forCommitFailure error: AccountStoreError) -> ImportError {
        switch error {
        case .changedMeanwhile, .linkIDAlreadyStored, .accountNotFound: .accountChangedMeanwhile
        default: .metadataStore(error)
        }
    }
}
