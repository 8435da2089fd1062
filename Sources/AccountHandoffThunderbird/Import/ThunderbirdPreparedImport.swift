import AccountHandoff
import AccountHandoffImport
import Foundation

/// One import into a Thunderbird profile between the offer and its outcome. It holds
/// Thunderbird's lock on the profile until it ends (completed, cancelled, or released).
public final class ThunderbirdPreparedImport: AccountImportPreparation, @unchecked Sendable {
    // Safety of @unchecked Sendable: `state` is only touched under `lock`; the session is
    // only used on the ProfileWork lane; the rest is immutable.
    private enum State {
        case open(choice: ImportChoice?)
        case running
        case finished
    }

    /// The offered account, as the person saw it.
    public let offer: AccountMetadata
    /// The profile's accounts the offer conflicts with; `nil` when it can simply be added.
    public let conflict: ImportConflict?
    /// The choices the person may make about ``conflict``: those of ``ImportConflict``, less
    /// keeping both where Thunderbird would then hold two accounts for one user and server.
    public let allowedChoices: [ImportChoice]
    /// The profile.
    public let profile: ThunderbirdProfile

    private let importer: ThunderbirdImporter
    private let session: SessionBox
    private let lock = NSLock()
    private var state = State.open(choice: nil)

    init(importer: ThunderbirdImporter, offer: AccountMetadata, conflict: ImportConflict?, session: SessionBox, keepBothAllowed: Bool) {
        self.importer = importer
        self.profile = importer.profile
        self.offer = offer
        self.conflict = conflict
        self.allowedChoices = (conflict?.allowedChoices ?? [.cancel]).filter { $0 != .keepBoth || keepBothAllowed }
        self.session = session
    }

    deinit { release() }

    /// Records the person's answer to ``conflict``. Choosing ``ImportChoice/cancel`` ends the
    /// import at once: reject the session, the password has not travelled.
    ///
    /// - Throws: ``ImportError/choiceNotAllowed(_:)`` for a choice outside ``allowedChoices``;
    ///   ``ImportError/alreadyFinished`` after the import ended.
    public func choose(_ choice: ImportChoice) throws(ImportError) {
        guard allowedChoices.contains(choice) else { throw .choiceNotAllowed(choice) }
        lock.lock()
        guard case .open = state else {
            lock.unlock()
            throw .alreadyFinished
        }
        state = choice == .cancel ? .finished : .open(choice: choice)
        lock.unlock()
        if choice == .cancel { release() }
    }

    /// ``choose(_:)`` for the session: ``AccountHandoffImport/ImportChoice/cancel`` declines the account.
    ///
    /// - Throws: ``AccountHandoff/ImportNotReady/choiceRequired`` for a choice outside
    ///   ``allowedChoices`` or after the import ended.
    public func record(_ choice: ImportChoice) throws(ImportNotReady) -> ImportDecision {
        do { try choose(choice) } catch { throw .choiceRequired }
        return choice == .cancel ? .decline : .importAccount
    }

    /// Ready when every conflict has a choice. The profile stays locked and was checked for
    /// writing when the import was prepared, so nothing is read here.
    public func checkReady() throws(ImportNotReady) {
        let ready: Bool = lock.withLock {
            guard case .open(let choice) = state else { return false }
            return conflict == nil || choice != nil
        }
        guard ready else { throw .choiceRequired }
    }

    /// Checks the account with its mail server, then writes it (see ``complete(metadata:credential:)``).
    public func importAccount(_ account: ImportedAccount) async -> ImportReport {
        let outcome = await complete(metadata: account.metadata, credential: account.credential)
        return ImportReport(status: outcome.receiptStatus, message: outcome.message)
    }

    /// Ends the import before the password arrived; nothing was changed.
    public func abandon() { cancel() }

    /// Ends the import without completing it; nothing was changed.
    public func cancel() {
        let wasRunning: Bool = lock.withLock {
            if case .running = state { return true }
            state = .finished
            return false
        }
        if !wasRunning { release() }
    }

    /// Imports `metadata` with `credential`: checks the account with its mail server, then
    /// writes it into the profile as one journaled transaction, or leaves the profile as it was.
    ///
    /// - Parameters:
    ///   - metadata: the delivered metadata; it must equal ``offer`` byte for byte.
    ///   - credential: the delivered password in guarded memory; only read, never wiped here.
    public func complete(metadata: AccountMetadata, credential: SecretBytes) async -> ThunderbirdImportOutcome {
        let plan: AccountPreferencesWriter.Plan
        switch begin(metadata) {
        case .success(let chosen): plan = chosen
        case .failure(let error): return .declined(error)
        }
        defer { finish() }
        let checkedWithServer: Bool
        switch await importer.validator.validate(offer, credential: credential) {
        case .valid: checkedWithServer = true
        case .notChecked: checkedWithServer = false
        case .failed(let failure): return .validationFailed(failure, account: offer)
        }
        // The person cancelled while the server was being checked: nothing is written.
        if Task.isCancelled { return .cancelled }
        let offer = self.offer
        let session = self.session
        let password = importer.currentPrimaryPassword
        let profile = self.profile
        let result = await ProfileWork.lane.run { (_: BlockingIOCancellation) -> Result<String, ProfileImportSession.WriteFailure> in
            // The lock is released in the same job, before the outcome is reported.
            defer { session.session.close() }
            do throws(ProfileImportSession.WriteFailure) {
                return .success(try session.session.write(offer, plan: plan, credential: credential, primaryPassword: password))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let key):
            let replaced: String? = if case .replace(let old) = plan { old.emailAddress } else { nil }
            return .imported(ThunderbirdImportedAccount(account: offer, accountKey: key, replacedAddress: replaced, profile: profile,
                                                        checkedWithServer: checkedWithServer))
        case .failure(.changedMeanwhile): return .declined(.accountChangedMeanwhile)
        case .failure(.failed(let error)): return .failed(error, profile: profile)
        case .failure(.rollbackPending(let error)): return .rollbackPending(error, profile: profile)
        }
    }

    /// Moves to `.running` and decides the plan, or says why the import cannot go on.
    private func begin(_ delivered: AccountMetadata) -> Result<AccountPreferencesWriter.Plan, ImportError> {
        lock.lock()
        guard case .open(let choice) = state else {
            lock.unlock()
            return .failure(.alreadyFinished)
        }
        let plan: AccountPreferencesWriter.Plan
        switch (conflict, choice) {
        case (nil, _), (_, .keepBoth?):
            plan = .add
        case (_, .replace(let id)?):
            guard let old = session.session.state.accounts.first(where: { $0.key == id.rawValue }) else {
                lock.unlock()
                return .failure(.accountChangedMeanwhile)
            }
            plan = .replace(old)
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
        lock.withLock { state = .finished }
        release()
    }

    /// Releases the profile's lock, on the work thread, without waiting
    /// (``ThunderbirdImporter/waitUntilReleased()`` waits). Idempotent.
    private func release() {
        let session = self.session
        ProfileWork.lane.execute { session.session.close() }
    }
}
