import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import Foundation

/// One ``ImportScenario`` in a fresh store: the seeded state, and the two states a
/// transaction may end in.
struct ScenarioRun {
    let scenario: ImportScenario
    let server: ThrowawayDovecot
    let scratch: URL
    let directory: URL
    let offer: AccountMetadata
    let old: StoredAccount?

    /// Creates the store and seeds the scenario's old account.
    init(_ scenario: ImportScenario) throws {
        self.scenario = scenario
        server = try SharedDovecot.server()
        scratch = try ImportFixtures.scratchDirectory()
        directory = scratch.appendingPathComponent("store")
        offer = try ImportScenario.offer(host: server.host, port: server.tlsPort, user: SharedDovecot.user)
        let store = try ReferenceAccountStore.open(at: directory)
        if let metadata = try scenario.oldAccount(host: server.host, port: server.tlsPort, user: SharedDovecot.user) {
            try ImportScenario.seed(store, id: ImportScenario.oldAccountID, metadata: metadata, password: ImportFixtures.oldPassword())
            old = StoredAccount(id: ImportScenario.oldAccountID, metadata: metadata, revision: 1)
        } else {
            old = nil
        }
    }

    /// The password the transfer delivers.
    func deliveredPassword() throws -> SecretBytes {
        scenario == .validationFailure ? try ImportFixtures.wrongPassword() : try ImportFixtures.rightPassword()
    }

    /// The accounts before the import.
    var oldAccounts: [StoreSnapshot.Account] {
        old.map { [StoreSnapshot.Account(id: $0.id, metadata: $0.metadata, credential: .old)] } ?? []
    }

    /// The accounts after a committed import.
    var newAccounts: [StoreSnapshot.Account] {
        switch scenario {
        case .replace, .validationFailure: [.init(id: ImportScenario.oldAccountID, metadata: offer, credential: .new)]
        case .add: [.init(id: ImportScenario.newAccountID, metadata: offer, credential: .new)]
        case .keepBoth: oldAccounts + [.init(id: ImportScenario.newAccountID, metadata: offer, credential: .new)]
        }
    }

    /// The committed account record a successful import reports.
    func importedRecord(_ activation: ImportedAccountRecord.Activation) -> ImportedAccountRecord {
        switch scenario {
        case .replace, .validationFailure:
            ImportedAccountRecord(account: StoredAccount(id: ImportScenario.oldAccountID, metadata: offer, revision: 2), replaced: old,
                                  activation: activation)
        case .add, .keepBoth:
            ImportedAccountRecord(account: StoredAccount(id: ImportScenario.newAccountID, metadata: offer, revision: 1), replaced: nil,
                                  activation: activation)
        }
    }

    /// What the store holds now.
    func snapshot() throws -> StoreSnapshot {
        try StoreSnapshot.take(directory, oldPassword: ImportFixtures.oldPassword(), newPassword: ImportFixtures.rightPassword())
    }

    /// Runs `recover()` with a plain store, as the app does on its next start.
    func recover() throws -> RecoveryReport {
        let store = try ReferenceAccountStore.open(at: directory)
        return try ImportHarness.coordinator(store, server: server).recover()
    }

    func remove() { ImportFixtures.remove(scratch) }

    /// Every (scenario, point) pair the scenario's import reaches.
    static func allPoints(excluding excluded: Set<TransactionPoint> = []) -> [(ImportScenario, TransactionPoint)] {
        ImportScenario.allCases.flatMap { scenario in
            let path = scenario == .validationFailure ? TransactionPoint.validationFailurePath : TransactionPoint.successPath
            return path.filter { !excluded.contains($0) }.map { (scenario, $0) }
        }
    }
}
