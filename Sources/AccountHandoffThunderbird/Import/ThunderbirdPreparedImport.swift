import AccountHandoff
import AccountHandoffImport
import Foundation

/// One import into a Thunderbird profile between the offer and its outcome. It holds
/// Thunderbird's lock on the profile until it ends (completed, cancelled, or released).
public final class ThunderbirdPreparedImport: AccountImportPreparation, @unchecked Sendable {
    // Safety of @unchecked Sendable: `state` locks itself; the session is only used on the
    // ProfileWork lane (and read under `state`'s lock while the plan is made); the rest is
    // immutable.

    /// The offered account, as the person saw it.
    public let offer: AccountMetadata
    /// The profile's accounts the offer conflicts with; `nil` when it can simply be added.
    public let conflict: ImportConflict?
    /// The choices the person may make about ``conflict``: those of ``ImportConflict``, less
    /// keeping both where Thunderbird would then hold two accounts for one user and server.
    public var allowedChoices: [ImportChoice] { state.allowedChoices }
    /// The profile.
    public let profile: ThunderbirdProfile

    private let importer: ThunderbirdImporter
    private let session: SessionBox
    private let state: ImportPreparationState

    init(importer: ThunderbirdImporter, offer: AccountMetadata, conflict: ImportConflict?, session: SessionBox, keepBothAllowed: Bool) {
        self.importer = importer
        self.profile = importer.profile
        self.offer = offer
        self.conflict = conflict
        self.state = ImportPreparationState(hasConflict: conflict != nil,
                                            allowedChoices: (conflict?.allowedChoices ?? [.cancel]).filter { $0 != .keepBoth || keepBothAllowed })
        self.session = session
    }

    deinit { release() }

    /// Records the person's answer to ``conflict``. Choosing ``ImportChoice/cancel`` ends the
    /// import at once: reject the session, the password has not travelled.
    ///
    /// - Throws: ``ImportError/choiceNotAllowed(_:)`` for a choice outside ``allowedChoices``;
    ///   ``ImportError/alreadyFinished`` after the import ended.
    public func choose(_ choice: ImportChoice) throws(ImportError) {
        if try state.record(choice) { release() }
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
        guard state.canRun else { throw .choiceRequired }
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
        if state.endUnlessRunning() { release() }
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
        case .run(let chosen): plan = chosen
        case .refused(let error, let ended):
            if ended { release() }
            return .declined(error)
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

    /// Moves to running with the plan for the person's choice, or says why the import cannot
    /// go on: besides the common refusals, the account to replace may have left the profile
    /// since the offer was shown.
    private func begin(_ delivered: AccountMetadata) -> ImportPreparationState.Start<AccountPreferencesWriter.Plan> {
        let session = self.session
        return state.begin(delivered: delivered, offer: offer) { replaced in
            guard let replaced else { return .success(.add) }
            guard let old = session.session.state.accounts.first(where: { $0.key == replaced.rawValue }) else {
                return .failure(.accountChangedMeanwhile)
            }
            return .success(.replace(old))
        }
    }

    private func finish() {
        state.finish()
        release()
    }

    /// Releases the profile's lock, on the work thread, without waiting
    /// (``ThunderbirdImporter/waitUntilReleased()`` waits). Idempotent.
    private func release() {
        let session = self.session
        ProfileWork.lane.execute { session.session.close() }
    }
}
