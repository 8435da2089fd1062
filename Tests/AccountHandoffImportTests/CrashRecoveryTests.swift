import AccountHandoff
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// A real process killed with SIGKILL at every step of the transaction, with credentials in
/// files and in the Secret Service: what a reader finds afterwards, and after recovery, is the
/// complete old account or the complete new one.
@Suite(.startsProcesses) struct CrashRecoveryTests {
    /// One point of each kind of recovery (a staged file to discard, an activation to finish,
    /// nothing to do), in `swift test`; the slow slice kills at every other step.
    static let quickPoints: Set<TransactionPoint> = [.stageFileSynced, .commitCommitted, .activateActiveItemStored, .finishAfter,
                                                      .discardBefore]

    @Test(arguments: ScenarioRun.allPoints(excluding: Set(TransactionPoint.allCases).subtracting(quickPoints)))
    func killAtOneStepOfEachRecoveryThenRecover(credentials: CredentialKind, scenario: ImportScenario, point: TransactionPoint) async throws {
        try await Self.killThenRecover(credentials: credentials, scenario: scenario, point: point)
    }

    @Test(.slowSlice, arguments: ScenarioRun.allPoints(excluding: quickPoints))
    func killAtEveryOtherStepThenRecover(credentials: CredentialKind, scenario: ImportScenario, point: TransactionPoint) async throws {
        try await Self.killThenRecover(credentials: credentials, scenario: scenario, point: point)
    }

    static func killThenRecover(credentials: CredentialKind, scenario: ImportScenario, point: TransactionPoint) async throws {
        let run = try await blocking { try ScenarioRun(scenario, credentials: credentials) }
        defer { run.remove() }
        try CrashProbe.killImport(run, at: point)

        let expected = point.isAfterCommit ? run.newAccounts : run.oldAccounts
        let crashed = try await run.snapshot()
        #expect(crashed.accounts == expected, "right after the kill: \(crashed)")

        let report = try await run.recover()
        let recovered = try await run.snapshot()
        #expect(recovered.accounts == expected, "after recovery: \(recovered)")
        #expect(recovered.isClean, "after recovery: \(recovered)")
        // Exactly what recovery had to do at this point.
        let (activations, leftovers) = Self.expectedRecovery(point)
        #expect(report.completedActivations == (activations ? [run.newAccounts.last!.id] : []))
        #expect(report.discardedStagedCredentials.count == leftovers)
        #expect(report.removedOrphanCredentials.isEmpty)
        #expect(report.accountsWithoutCredential.isEmpty)
        #expect(try await run.recover().foundNothing, "a second recovery finds nothing")
    }

    /// Whether recovery must finish an activation, and how many staged files it must delete.
    static func expectedRecovery(_ point: TransactionPoint) -> (activation: Bool, leftovers: Int) {
        switch point {
        case .stageBefore, .discardUnlinked, .discardAfter: (false, 0)
        case .stageFileCreated, .stageFileWritten, .stageFileSynced, .stageAfter, .validateAfter,
             .commitTransactionBegun, .commitRowWritten, .discardBefore: (false, 1)
        case .commitCommitted, .commitAfter: (true, 0)  // committed, the staged file not yet renamed
        case .activateActiveItemStored: (true, 0)  // the active item written, the staged one not yet deleted
        case .activateRenamed, .activateAfter, .finishCommitted, .finishAfter: (false, 0)
        }
    }
}
