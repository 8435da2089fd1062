import AccountHandoff
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation
import Testing

/// A failure injected at every step of the transaction, around and inside the real store:
/// the import reports exactly what happened, and the store holds the complete old or the
/// complete new account, before and after recovery.
@Suite struct FaultInjectionTests {
    // A validator cannot fail with a store error; its failures are the real ones in
    // ImportTransactionTests and IMAPValidatorTests.
    static let cases = ScenarioRun.allPoints(excluding: [.validateAfter])

    @Test(arguments: cases)
    func faultLeavesTheOldOrTheNewAccountComplete(credentials: CredentialKind, scenario: ImportScenario, point: TransactionPoint) async throws {
        let run = try await blocking { try ScenarioRun(scenario, credentials: credentials) }
        defer { run.remove() }
        let fault = OneFault(at: point)
        let store = try await blocking { try InterposingStore(directory: run.directory, backend: run.backend, interposer: fault.interposer) }
        let coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: ImportFixtures.validator(run.server),
                                            makeAccountID: { ImportScenario.newAccountID })
        let prepared = try await blocking { try coordinator.prepare(offer: run.offer) }
        if let choice = scenario.choice { try prepared.choose(choice) }
        let outcome = await prepared.complete(metadata: run.offer, credential: try run.deliveredPassword())

        #expect(fault.hasFired)
        #expect(outcome == Self.expectedOutcome(run, point, fault.failure))
        let expected = point.isAfterCommit ? run.newAccounts : run.oldAccounts
        #expect(try await run.snapshot().accounts == expected, "before recovery")
        _ = try await run.recover()
        let recovered = try await run.snapshot()
        #expect(recovered.accounts == expected, "after recovery")
        #expect(recovered.isClean, "\(recovered)")
    }

    static func expectedOutcome(_ run: ScenarioRun, _ point: TransactionPoint, _ failure: StoreFailure) -> ImportOutcome {
        switch point {
        case .stageBefore, .stageFileCreated, .stageFileWritten, .stageFileSynced, .stageAfter:
            return .declined(.failed(.credentialStore(.failed(failure))))
        case .commitTransactionBegun, .commitRowWritten:
            return .declined(.failed(.metadataStore(.failed(failure))))
        case .commitCommitted, .commitAfter, .validateAfter:
            // The commit reported a failure, but it landed: the coordinator checks and goes on.
            return .imported(run.importedRecord(.complete))
        case .activateRenamed, .activateActiveItemStored, .activateAfter:
            return .imported(run.importedRecord(.deferredToRecovery(.credentialStore(.failed(failure)))))
        case .finishCommitted, .finishAfter:
            return .imported(run.importedRecord(.deferredToRecovery(.metadataStore(.failed(failure)))))
        case .discardBefore, .discardUnlinked, .discardAfter:
            return .validationFailed(.authenticationFailed, account: run.offer)
        }
    }

    @Test func partialStagedFileIsRemovedByTheStoreItself() async throws {
        let run = try await blocking { try ScenarioRun(.replace) }
        defer { run.remove() }
        let fault = OneFault(at: .stageFileWritten)
        let store = try await blocking { try InterposingStore(directory: run.directory, interposer: fault.interposer) }
        let coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: ImportFixtures.validator(run.server))
        let prepared = try await blocking { try coordinator.prepare(offer: run.offer) }
        try prepared.choose(.replace(ImportScenario.oldAccountID))
        _ = await prepared.complete(metadata: run.offer, credential: try run.deliveredPassword())
        // No recovery needed: the half-written file is gone already.
        #expect(try await run.snapshot().isClean)
    }

    @Test(arguments: CredentialKind.allCases)
    func failedDiscardAfterAValidationFailureLeavesALeftoverThatRecoveryRemoves(credentials: CredentialKind) async throws {
        let run = try await blocking { try ScenarioRun(.validationFailure, credentials: credentials) }
        defer { run.remove() }
        let fault = OneFault(at: .discardBefore)
        let store = try await blocking { try InterposingStore(directory: run.directory, backend: run.backend, interposer: fault.interposer) }
        let coordinator = ImportCoordinator(metadataStore: store, credentialStore: store, validator: ImportFixtures.validator(run.server))
        let prepared = try await blocking { try coordinator.prepare(offer: run.offer) }
        try prepared.choose(.replace(ImportScenario.oldAccountID))
        #expect(await prepared.complete(metadata: run.offer, credential: try run.deliveredPassword())
                == .validationFailed(.authenticationFailed, account: run.offer))
        let leftover = try await run.snapshot()
        #expect(leftover.accounts == run.oldAccounts)
        #expect(leftover.staged.count == 1)
        #expect(try await run.recover().discardedStagedCredentials == leftover.staged)
        #expect(try await run.snapshot().isClean)
    }
}
