import AccountHandoff
import Foundation

/// One import between the offer and its outcome. It holds the link-ID claim and the store
/// lease until it ends (completed, cancelled, or deallocated).
public final class PreparedImport: @unchecked Sendable {
    // Safety of @unchecked Sendable: `state` is only touched under `lock`; the rest is immutable.
    private enum State {
        case open(choice: ImportChoice?)
        case running
        case finished
    }

    /// The offered account, as the person saw it.
    public let offer: AccountMetadata
    /// The stored accounts the offer conflicts with; `nil` when it can simply be added.
    public let conflict: ImportConflict?
    /// What the recovery run during ``ImportCoordinator/prepare(offer:)`` did.
    public let recovery: RecoveryReport

    private let coordinator: ImportCoordinator
    private let fingerprint: [AccountRevision]
    private let lease: ImportLease
    private let lock = NSLock()
    private var state = State.open(choice: nil)

    init(coordinator: ImportCoordinator, offer: AccountMetadata, accounts: [StoredAccount],
         recovery: RecoveryReport, lease: ImportLease) {
        self.coordinator = coordinator
        self.offer = offer
        self.conflict = ConflictDetector.conflict(for: offer, among: accounts)
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
        let allowed = conflict?.allowedChoices ?? [.cancel]
        guard allowed.contains(choice) else { throw .choiceNotAllowed(choice) }
        lock.lock()
        guard case .open = state else {
            lock.unlock()
            throw .alreadyFinished
        }
        state = choice == .cancel ? .finished : .open(choice: choice)
        lock.unlock()
        if choice == .cancel { release() }
    }

    /// Whether the import can run as things stand: no conflict, or a choice other than
    /// cancel was recorded while the import is open.
    var hasChoiceIfNeeded: Bool {
        lock.withLock {
            guard case .open(let choice) = state else { return false }
            return conflict == nil || choice != nil
        }
    }

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
        lock.lock()
        let wasRunning: Bool
        if case .running = state { wasRunning = true } else { wasRunning = false }
        if !wasRunning { state = .finished }
        lock.unlock()
        guard !wasRunning else { return .declined(.failed(.alreadyFinished)) }
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
        case .success(let chosen): plan = chosen
        case .failure(let error): return .declined(.failed(error))
        }
        let transaction = ImportTransaction(metadataStore: coordinator.metadataStore,
                                            credentialStore: coordinator.credentialStore,
                                            validator: coordinator.validator,
                                            offer: offer, plan: plan, fingerprint: fingerprint)
        let outcome = await transaction.run(credential)
        finish()
        return outcome
    }

    /// Moves to `.running` and decides the plan, or says why the import cannot go on.
    private func begin(_ delivered: AccountMetadata) -> Result<ImportTransaction.Plan, ImportError> {
        lock.lock()
        guard case .open(let choice) = state else {
            lock.unlock()
            return .failure(.alreadyFinished)
        }
        let plan: ImportTransaction.Plan
        switch (conflict, choice) {
        case (nil, _), (_, .keepBoth?):
            plan = .add(coordinator.makeAccountID())
        case (let conflict?, .replace(let id)?):
            // `choose` only records IDs from the conflict's allowed choices.
            plan = .replace(conflict.existing.first { $0.account.id == id }!.account)
        case (_, nil):
            lock.unlock()
            return .failure(.choiceRequired)
        case (_, .cancel?):
            lock.unlock()
            return .failure(.alreadyFinished)
        }
        guard delivered == offer else {
            state = .finished
            lock.unlock()
            release()
            return .failure(.deliveredAccountDiffersFromOffer)
        }
        state = .running
        lock.unlock()
        return .success(plan)
    }

    private func finish() {
        lock.lock()
        state = .finished
        lock.unlock()
        release()
    }

    /// Gives back the store lease and the link-ID claim. Idempotent.
    private func release() {
        guard !lease.isReleased else { return }
        lease.release()
        coordinator.inFlight.release(offer.linkID)
    }
}
