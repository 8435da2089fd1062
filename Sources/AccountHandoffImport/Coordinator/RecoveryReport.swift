/// What ``ImportCoordinator/recover()`` did.
public struct RecoveryReport: Hashable, Sendable {
    /// Recovery did nothing because an import holds a lease on the store.
    public var skippedBecauseImportIsRunning: Bool = false
    /// Accounts whose committed credential was activated (a crash interrupted activation).
    public var completedActivations: [LocalAccountID] = []
    /// Staged credentials no account refers to (an uncommitted import's leftovers), deleted.
    public var discardedStagedCredentials: [StagedCredential] = []
    /// Active credentials whose account no longer exists, deleted.
    public var removedOrphanCredentials: [LocalAccountID] = []
    /// Accounts without any credential; recovery cannot restore one, the person must sign in again.
    public var accountsWithoutCredential: [LocalAccountID] = []

    /// A report of a recovery that found nothing to do.
    public init() {}

    /// Whether the store was already consistent.
    public var foundNothing: Bool {
        !skippedBecauseImportIsRunning && completedActivations.isEmpty && discardedStagedCredentials.isEmpty
            && removedOrphanCredentials.isEmpty && accountsWithoutCredential.isEmpty
    }
}
