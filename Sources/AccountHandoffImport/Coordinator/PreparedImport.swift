import AccountHandoff
import Foundation

/// One import between the offer and its outcome. It holds the link-ID claim and the store
/// lease until it ends (completed, cancelled, or deallocated).
public final class PreparedImport: @unchecked Sendable {
    // Safety of @unchecked Sendable: `state` locks itself; the rest is immutable.

    /// The offered account, as the person saw it.
    public let offer: AccountMetadata
    /// The stored accounts the offer conflicts with; `nil` when it can simply be added.
    public let conflict: ImportConflict?
    /// What the recovery run during ``ImportCoordinator/prepare(offer:)`` did.
    public let recovery: RecoveryReport

    private let coordinator: ImportCoordinator
    private let fingerprint: [AccountRevision]
    private let lease: ImportLease
    private let state: ImportPreparationState

    init(coordinator: ImportCoordinator, offer: AccountMetadata, accounts: [StoredAccount],
         recovery: RecoveryReport, lease: ImportLease) {
        self.coordinator = coordinator
        self.offer = offer
        let conflict = ConflictDetector.conflict(for: offer, among: accounts)
        self.conflict = conflict
        self.state = ImportPreparationState(hasConflict: conflict != nil, allowedChoices: conflict?.allowedChoices ?? [.cancel])
        self.fingerprint = ConflictDetector.fingerprint(for: offer, among: accounts)
        self.recovery = recovery
        self.lease = lease
    }

    deinit { release() }

    /// Records the person's answer to ``conflict``. Choosing ``ImportChoice/cancel`` ends the
    /// import at once: reject the session, the password has not travelled.
    ///
    /// - Throws: ``ImportError/choiceNotAllowed(_:)`` for a choice outside
    ///   ``ImportConflict/allowedChoices`` (any choice but cancel when there is no conflict);
    ///   ``ImportError/alreadyFinished`` after the import ended.
    public func choose(_ choice: ImportChoice) throws(ImportError) {
        if try state.record(choice) { release() }
    }

    /// Whether the import can run as things stand: no conflict, or a choice other than
    /// cancel was recorded while the import is open.
    var hasChoiceIfNeeded: Bool { state.canRun }

    /// Checks that both stores could be written now (the person may have waited a while
    /// since ``ImportCoordinator/prepare(offer:)`` checked).
    func checkStoresWritable() throws(ImportError) {
        do { try coordinator.metadataStore.checkMetadataWritable() } catch { throw .metadataStore(error) }
        do { try coordinator.credentialStore.checkCredentialsWritable() } catch { throw .credentialStore(error) }
        do { try coordinator.validator.checkReady() } catch { throw .validatorNotReady(error) }
    }

    /// Ends the import without completing it (the person cancelled, or the session ended
    /// before the account arrived). Nothing was changed.
    @discardableResult
    public func cancel() -> ImportOutcome {
        guard state.endUnlessRunning() else { return .declined(.failed(.alreadyFinished)) }
        release()
        return .declined(.cancelledByPerson)
    }

    /// Imports the account the session delivered: stage, validate, commit or roll back.
    ///
    /// - Parameter delivered: the account of the receiver session's
    ///   ``AccountHandoff/ReceiverAction/deliverAccount(_:)``; its metadata must equal
    ///   ``offer``. Its credential is only read, never wiped here: the receiver session
    ///   (``AccountHandoff/HandoffReceiverSession``) wipes the delivered credential as soon as
    ///   the importer's `importAccount(_:)` returns (Spec 6.5).
    /// - Returns: the outcome; ``ImportOutcome/receiptStatus`` is what the receiver reports.
    public func complete(with delivered: ImportedAccount) async -> ImportOutcome {
        await complete(metadata: delivered.metadata, credential: delivered.credential)
    }

    /// Imports `metadata` with `credential`: stage, validate, commit or roll back.
    ///
    /// - Parameters:
    ///   - metadata: the delivered metadata; it must equal ``offer`` byte for byte.
    ///   - credential: the delivered password in guarded memory; only read, never wiped here
    ///     (whoever delivered it wipes it; the receiver session does as soon as the importer's
    ///     `importAccount(_:)` returns).
    /// - Returns: the outcome; ``ImportOutcome/receiptStatus`` is what the receiver reports.
    public func complete(metadata: AccountMetadata, credential: SecretBytes) async -> ImportOutcome {
        let plan: ImportTransaction.Plan
        switch begin(metadata) {
        case .run(let chosen): plan = chosen
        case .refused(let error, let ended):
            if ended { release() }
            return .declined(.failed(error))
        }
        let transaction = ImportTransaction(metadataStore: coordinator.metadataStore,
                                            credentialStore: coordinator.credentialStore,
                                            validator: coordinator.validator,
                                            offer: offer, plan: plan, fingerprint: fingerprint)
        let outcome = await transaction.run(credential)
        finish()
        return outcome
    }

    /// Moves to running with the plan for the person's choice, or says why the import cannot go on.
    private func begin(_ delivered: AccountMetadata) -> ImportPreparationState.Start<ImportTransaction.Plan> {
        state.begin(delivered: delivered, offer: offer) { replaced in
            guard let replaced else { return .success(.add(coordinator.makeAccountID())) }
            // `record` only accepts IDs from the conflict's allowed choices.
            return .success(.replace(conflict!.existing.first { $0.account.id == replaced }!.account))
        }
    }

    private func finish() {
        state.finish()
        release()
    }

    /// Gives back the store lease and the link-ID claim. Idempotent.
    private func release() {
        guard !lease.isReleased else { return }
        lease.release()
        coordinator.inFlight.release(offer.linkID)
    }
}
