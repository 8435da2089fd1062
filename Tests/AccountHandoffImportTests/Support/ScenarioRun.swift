import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation

/// The credential store a test runs with, as a test argument.
enum CredentialKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The reference store's 0600 files.
    case files
    /// The shared throwaway Secret Service (gnome-keyring), with SQLite metadata.
    case keyring

    var description: String { rawValue }

    /// A backend with a fresh namespace (starting the shared Secret Service for `keyring`).
    func backend() throws -> CredentialBackend {
        switch self {
        case .files: return .files
        case .keyring:
            _ = try SharedSecretService.service()
            return .keyring(namespace: "import-\(UUID().uuidString.lowercased())")
        }
    }

    /// A backend of this kind for listing the points it reaches (no service is started).
    var pathBackend: CredentialBackend {
        switch self {
        case .files: .files
        case .keyring: .keyring(namespace: "points")
        }
    }
}

/// One ``ImportScenario`` in a fresh store: the seeded state, and the two states a
/// transaction may end in.
struct ScenarioRun {
    let scenario: ImportScenario
    let backend: CredentialBackend
    let server: ThrowawayDovecot
    let scratch: URL
    let directory: URL
    let offer: AccountMetadata
    let old: StoredAccount?

    /// Creates the store and seeds the scenario's old account; `kind` says where the
    /// credentials go (`keyring`: the shared throwaway Secret Service, in a fresh namespace).
    init(_ scenario: ImportScenario, credentials kind: CredentialKind = .files) throws {
        self.scenario = scenario
        self.backend = try kind.backend()
        server = try SharedDovecot.server()
        scratch = try ImportFixtures.scratchDirectory()
        directory = scratch.appendingPathComponent("store")
        offer = try ImportScenario.offer(host: server.host, port: server.tlsPort, user: SharedDovecot.user)
        let store = try ReferenceAccountStore.open(at: directory)
        if let metadata = try scenario.oldAccount(host: server.host, port: server.tlsPort, user: SharedDovecot.user) {
            try ImportScenario.seed(store, credentials: backend.credentialStore(store), id: ImportScenario.oldAccountID, metadata: metadata,
                                    password: ImportFixtures.oldPassword())
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

    /// What the store holds now (read on the I/O pool: the stores block).
    func snapshot() async throws -> StoreSnapshot {
        let (directory, backend) = (directory, backend)
        return try await blocking {
            try StoreSnapshot.take(directory, backend: backend, oldPassword: ImportFixtures.oldPassword(),
                                   newPassword: ImportFixtures.rightPassword())
        }
    }

    /// Runs `recover()` with plain stores, as the app does on its next start (on the I/O pool).
    func recover() async throws -> RecoveryReport {
        let (directory, backend, server) = (directory, backend, server)
        return try await blocking {
            let store = try ReferenceAccountStore.open(at: directory)
            return try ImportHarness.coordinator(store, credentials: backend.credentialStore(store), server: server).recover()
        }
    }

    /// The crash probe's arguments for the backend.
    var probeArguments: [String] {
        switch backend {
        case .files: ["--credentials", "files"]
        case .keyring(let namespace): ["--credentials", "keyring", "--namespace", namespace]
        }
    }

    /// Removes the scratch directory now and, for the keyring, what is left in the run's
    /// namespace on the I/O pool (the keyring blocks), after the test.
    func remove() {
        if case .keyring = backend {
            let (directory, backend) = (directory, backend)
            BlockingIOPool.shared.execute {
                guard let store = try? ReferenceAccountStore.open(at: directory) else { return }
                StoreSnapshot.clear(backend.credentialStore(store))
            }
        }
        ImportFixtures.remove(scratch)
    }

    /// Every (credential kind, scenario, point) triple the scenario's import reaches.
    static func allPoints(excluding excluded: Set<TransactionPoint> = []) -> [(CredentialKind, ImportScenario, TransactionPoint)] {
        CredentialKind.allCases.flatMap { kind in
            ImportScenario.allCases.flatMap { scenario in
                let backend = kind.pathBackend
                let path = scenario == .validationFailure ? backend.validationFailurePath : backend.successPath
                return path.filter { !excluded.contains($0) }.map { (kind, scenario, $0) }
            }
        }
    }
}
