#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffImport
import AccountHandoffImportTestSupport
import AccountHandoffReferenceStore
import AccountHandoffTestSupport
import Foundation
import Testing

/// The reference store on its own: layout, permissions, refusals, transactions, leases.
@Suite struct ReferenceStoreTests {
    static let password = "reference-store-password-never-in-the-db"

    static func metadata(linkID: AccountLinkID = AccountLinkID(uuid: UUID())) throws -> AccountMetadata {
        try AccountMetadata(linkID: linkID, displayName: "Ada Lovelace", emailAddress: "ada@example.org", username: "ada",
                            imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
    }

    /// A store directory inside a fresh scratch directory.
    static func scratchStore() throws -> (scratch: URL, store: URL) {
        let scratch = try ImportFixtures.scratchDirectory()
        return (scratch, scratch.appendingPathComponent("store"))
    }

    @Test func newStoreIsPrivateAndInWALMode() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let id = LocalAccountID.random()
        try await blocking { try ImportScenario.seed(store, id: id, metadata: try Self.metadata(), password: SecretBytes(utf8: Self.password)) }
        #expect(StoreFiles.mode(directory) == 0o700)
        #expect(StoreFiles.mode(StoreFiles.credentials(directory)) == 0o700)
        #expect(StoreFiles.mode(StoreFiles.database(directory)) == 0o600)
        #expect(StoreFiles.mode(URL(fileURLWithPath: StoreFiles.database(directory).path + "-wal")) == 0o600)
        #expect(StoreFiles.mode(StoreFiles.credentials(directory).appendingPathComponent("account-\(id).credential")) == 0o600)
        #expect(StoreFiles.query(directory, "PRAGMA journal_mode") == ["wal"])
        #expect(StoreFiles.credentialFileNames(directory) == ["account-\(id).credential"])
        #expect(store.warnings.isEmpty)
    }

    /// Two opens of one new store at the same instant (two receivers creating it): both get
    /// the store in WAL mode. SQLite refuses one of two connections that switch the journal
    /// mode together at once with SQLITE_BUSY, so that open must ask again, not fail.
    @Test func twoOpensOfOneNewStoreAtOnceBothSucceed() async throws {
        var failures: [String] = []
        for _ in 0..<40 {
            let (scratch, directory) = try Self.scratchStore()
            defer { ImportFixtures.remove(scratch) }
            let start = DispatchSemaphore(value: 0)
            let both = try await blocking { () -> [String] in
                let results = OpenResults()
                let threads = (0..<2).map { _ in
                    Thread {
                        start.wait()
                        do { _ = try ReferenceAccountStore.open(at: directory); results.add(nil) } catch { results.add("\(error)") }
                    }
                }
                threads.forEach { $0.start() }
                start.signal()
                start.signal()
                return results.waitForTwo()
            }
            failures += both
        }
        #expect(failures == [])
    }

    /// What the two opening threads of ``twoOpensOfOneNewStoreAtOnceBothSucceed()`` report.
    final class OpenResults: @unchecked Sendable {
        // Safety of @unchecked Sendable: `failures` and `count` are only touched under `done`.
        private let done = NSCondition()
        private var failures: [String] = []
        private var count = 0

        func add(_ failure: String?) {
            done.withLock {
                if let failure { failures.append(failure) }
                count += 1
                done.broadcast()
            }
        }

        func waitForTwo() -> [String] {
            done.withLock {
                while count < 2 { done.wait() }
                return failures
            }
        }
    }

    @Test func schemaHasNoSecretColumnAndTheDatabaseNeverHoldsThePassword() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        try await blocking { try ImportScenario.seed(store, id: .random(), metadata: try Self.metadata(), password: SecretBytes(utf8: Self.password)) }
        #expect(StoreFiles.query(directory, "SELECT name FROM pragma_table_info('accounts') ORDER BY cid")
                == ["account_id", "account_link_id", "display_name", "email_address", "username", "imap_host", "imap_port",
                    "imap_security", "revision", "pending_credential"])
        #expect(StoreFiles.query(directory, "SELECT name FROM sqlite_master WHERE type = 'table'") == ["accounts"])
        #expect(!StoreFiles.databaseBytes(directory).contains(bytes: Array(Self.password.utf8)))
    }

    @Test func linkIDIsStoredAsItsSixteenBytes() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let linkID = try #require(AccountLinkID(bytes: Array(0xF0...0xFF)))
        try await blocking { try ImportScenario.seed(store, id: .random(), metadata: try Self.metadata(linkID: linkID), password: SecretBytes(utf8: "pw")) }
        #expect(StoreFiles.query(directory, "SELECT hex(account_link_id) FROM accounts") == ["F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF"])
        #expect(try await blocking { try ReferenceAccountStore.open(at: directory).listAccounts() }.map(\.metadata.linkID.bytes) == [Array(0xF0...0xFF)])
    }

    @Test func symbolicLinkAsTheStoreIsRefused() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let real = scratch.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(at: directory, withDestinationURL: real)
        await #expect(throws: AccountStoreError.unsafeLocation(.symbolicLink(path: directory.path))) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: real.path).isEmpty)
    }

    @Test func regularFileAsTheStoreIsRefused() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        try Data("not a directory".utf8).write(to: directory)
        await #expect(throws: AccountStoreError.unsafeLocation(.notADirectory(path: directory.path))) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
    }

    @Test func missingParentIsReported() async throws {
        let (scratch, _) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let directory = scratch.appendingPathComponent("missing/store")
        await #expect(throws: AccountStoreError.unsafeLocation(.missingParent(path: directory.path))) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
    }

    @Test func symbolicLinksInsideTheStoreAreRefused() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        _ = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let elsewhere = scratch.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        // The credentials directory replaced by a link.
        let credentials = StoreFiles.credentials(directory)
        try FileManager.default.removeItem(at: credentials)
        try FileManager.default.createSymbolicLink(at: credentials, withDestinationURL: elsewhere)
        await #expect(throws: AccountStoreError.unsafeLocation(.symbolicLink(path: credentials.path))) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
        try FileManager.default.removeItem(at: credentials)
        // The database replaced by a link, or by a directory.
        let database = StoreFiles.database(directory)
        try FileManager.default.removeItem(at: database)
        try FileManager.default.createSymbolicLink(at: database, withDestinationURL: elsewhere.appendingPathComponent("db"))
        await #expect(throws: AccountStoreError.unsafeLocation(.symbolicLink(path: database.path))) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
        try FileManager.default.removeItem(at: database)
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: false)
        await #expect(throws: AccountStoreError.unsafeLocation(.notARegularFile(path: database.path))) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
    }

    @Test func credentialFileReplacedByALinkIsNeitherFollowedNorOverwritten() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let id = LocalAccountID.random()
        let victim = scratch.appendingPathComponent("victim")
        try Data("precious".utf8).write(to: victim)
        let target = StoreFiles.credentials(directory).appendingPathComponent("account-\(id).credential")
        try FileManager.default.createSymbolicLink(at: target, withDestinationURL: victim)
        let staged = try await blocking { try store.stage(SecretBytes(utf8: Self.password)) }
        await #expect(throws: CredentialStoreError.unsafeLocation(.symbolicLink(path: target.path))) {
            try await blocking { try store.activate(staged, for: id) }
        }
        try await blocking { try store.commit(.add(id, try Self.metadata(), credential: staged)) { _ in true } }
        try await blocking { try store.finishActivation(PendingActivation(account: id, credential: staged)) }
        await #expect(throws: CredentialStoreError.unsafeLocation(.symbolicLink(path: target.path))) {
            try await blocking { try store.credential(for: id) }
        }
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
    }

    @Test func looseDirectoryIsRefusedByDefault() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        #expect(chmod(directory.path, 0o755) == 0)
        await #expect(throws: AccountStoreError.unsafeLocation(.permissionsTooOpen(path: directory.path, mode: 0o755))) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
        #expect(StoreFiles.mode(directory) == 0o755)
    }

    @Test func looseDirectoryIsTightenedWithAWarningWhenAsked() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        #expect(chmod(directory.path, 0o775) == 0)
        let store = try await blocking { try ReferenceAccountStore.open(at: directory, options: ReferenceStoreOptions(loosePermissions: .tighten)) }
        #expect(store.warnings == [.tightenedPermissions(path: directory.path, from: 0o775, to: 0o700)])
        #expect(StoreFiles.mode(directory) == 0o700)
        #expect(store.warnings[0].description == store.warnings[0].sentence(in: .english))
        #expect(store.warnings[0].sentence(in: .english) == "The path \(directory.path) had mode 775, which let other users in; it was changed to 700. "
                + "Check that no one copied the stored passwords meanwhile.")
        #expect(store.warnings[0].sentence(in: .german) == "Der Pfad \(directory.path) hatte die Rechte 775, die anderen Benutzern Zugriff gaben; "
                + "sie wurden auf 700 geändert. Stellen Sie sicher, dass niemand in der Zwischenzeit die gespeicherten Passwörter kopiert hat.")
    }

    @Test(.enabled(if: geteuid() == 0, "only root can create a directory owned by another user"))
    func directoryOfAnotherUserIsRefused() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(chown(directory.path, 65534, 65534) == 0)
        await #expect(throws: AccountStoreError.unsafeLocation(.ownedByAnotherUser(path: directory.path, owner: 65534))) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
    }

    @Test func garbageDatabaseIsReportedAsCorrupt() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        _ = try await blocking { try ReferenceAccountStore.open(at: directory) }
        try Data(repeating: 0x5A, count: 4096).write(to: StoreFiles.database(directory))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: StoreFiles.database(directory).path + suffix) }
        await #expect(throws: AccountStoreError.corrupt("file is not a database")) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
    }

    @Test func newerSchemaIsRefused() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        _ = try await blocking { try ReferenceAccountStore.open(at: directory) }
        _ = StoreFiles.query(directory, "PRAGMA user_version = 7")
        await #expect(throws: AccountStoreError.unsupportedSchema(7)) {
            try await blocking { try ReferenceAccountStore.open(at: directory) }
        }
    }

    @Test func tamperedRowIsReportedByField() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let id = LocalAccountID.random()
        try await blocking { try ImportScenario.seed(store, id: id, metadata: try Self.metadata(), password: SecretBytes(utf8: "pw")) }
        _ = StoreFiles.query(directory, "UPDATE accounts SET email_address = ''")
        await #expect(throws: AccountStoreError.invalidRecord("email_address")) { try await blocking { try store.listAccounts() } }
        // Reading the password reads the row first, and reports the account store's error.
        let refusal = CredentialStoreError.accountStore(.invalidRecord("email_address"))
        await #expect(throws: refusal) { try await blocking { try store.credential(for: id) } }
        #expect(refusal.sentence(in: .english) == "A stored account has an invalid email_address field; restore the store from a backup.")
        #expect(refusal.sentence(in: .german)
                == "Ein gespeichertes Konto hat ein ungültiges Feld email_address; stellen Sie den Speicher aus einer Sicherung wieder her.")
    }

    @Test func commitsAreAllOrNothing() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let metadata = try Self.metadata()
        let first = LocalAccountID.random()
        try await blocking { try ImportScenario.seed(store, id: first, metadata: metadata, password: SecretBytes(utf8: "pw")) }
        let staged = try await blocking { try store.stage(SecretBytes(utf8: "pw2")) }
        await #expect(throws: AccountStoreError.linkIDAlreadyStored) {
            try await blocking { try store.commit(.add(.random(), metadata, credential: staged)) { _ in true } }
        }
        await #expect(throws: AccountStoreError.changedMeanwhile) {
            try await blocking { try store.commit(.replace(first, metadata, credential: staged)) { _ in false } }
        }
        let missing = LocalAccountID.random()
        await #expect(throws: AccountStoreError.accountNotFound(missing)) {
            try await blocking { try store.commit(.replace(missing, try Self.metadata(), credential: staged)) { _ in true } }
        }
        #expect(try await blocking { try store.listAccounts() } == [StoredAccount(id: first, metadata: metadata, revision: 1)])
        #expect(try await blocking { try store.pendingActivations() }.isEmpty)
    }

    @Test func stagingRefusesEmptyAndOversizedCredentials() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        await #expect(throws: CredentialStoreError.emptyCredential) { try await blocking { try store.stage(SecretBytes(copying: [UInt8]())) } }
        await #expect(throws: CredentialStoreError.credentialTooLarge(byteCount: 4097)) {
            try await blocking { try store.stage(SecretBytes(copying: [UInt8](repeating: 1, count: 4097))) }
        }
        #expect(StoreFiles.credentialFileNames(directory).isEmpty)
    }

    @Test func recoveryLeaseExcludesImportsAndOtherRecoveries() async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let first = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let second = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let importLease = try await blocking { try first.acquireImportLease() }
        let otherImport = try await blocking { try second.acquireImportLease() }
        #expect(try await blocking { try second.acquireRecoveryLease() } == nil)
        importLease.release()
        #expect(try await blocking { try second.acquireRecoveryLease() } == nil)
        otherImport.release()
        let recovery = try #require(try await blocking { try second.acquireRecoveryLease() })
        #expect(try await blocking { try first.acquireRecoveryLease() } == nil)
        recovery.release()
        #expect(try await blocking { try first.acquireRecoveryLease() } != nil)
    }

    #if os(Linux)
    /// A child process that another thread is starting holds a copy of every descriptor until
    /// its `exec`. A released lease must be free at once for everyone, not only once the last
    /// copy of its descriptor closes (a recovery right after another used to find the store busy).
    @Test(arguments: [false, true])
    func aReleasedLeaseIsFreeWhileACopyOfItsDescriptorIsStillOpen(importLease: Bool) async throws {
        let (scratch, directory) = try Self.scratchStore()
        defer { ImportFixtures.remove(scratch) }
        let store = try await blocking { try ReferenceAccountStore.open(at: directory) }
        let lease = importLease ? try await blocking { try store.acquireImportLease() } : try #require(try await blocking { try store.acquireRecoveryLease() })
        let lockPath = directory.resolvingSymlinksInPath().appendingPathComponent("import.lock").path
        let held = Self.openDescriptors(of: lockPath)
        try #require(held.count == 1, "descriptors on import.lock: \(held)")
        let inherited = dup(held[0])  // what the child has between its fork and its exec
        try #require(inherited >= 0)
        defer { close(inherited) }

        lease.release()
        let next = try #require(try await blocking { try store.acquireRecoveryLease() }, "the released lease still held through the copy")
        next.release()
    }

    /// This process's descriptors that refer to `path`.
    private static func openDescriptors(of path: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry),
                  target == path else { return nil }
            return Int32(entry)
        }
    }
    #endif
}
