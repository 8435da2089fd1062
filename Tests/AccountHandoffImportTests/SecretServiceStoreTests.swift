import AccountHandoff
import AccountHandoffImport
import AccountHandoffSecretService
import AccountHandoffTestSupport
import Foundation
import Testing
import ThrowawaySecretService
import TestProcesses

/// The Secret Service credential store against a real gnome-keyring-daemon on a throwaway
/// session bus: the same staging semantics as the reference store's credential files.
@Suite(.startsProcesses) struct SecretServiceStoreTests {
    @Test func stageActivateDiscardListAndDeleteRoundTrip() async throws {
        let store = try await blocking { try SharedSecretService.store() }
        try await blocking { try store.checkCredentialsWritable() }
        #expect(try await blocking { try store.stagedCredentials() }.isEmpty)
        #expect(try await blocking { try store.accountsWithCredential() }.isEmpty)

        let first = try await blocking { try store.stage(SecretBytes(utf8: "first password")) }
        let second = try await blocking { try store.stage(SecretBytes(utf8: "second password")) }
        #expect(first != second)
        #expect(first.name.hasPrefix("staged-") && second.name.hasPrefix("staged-"))
        #expect(try await blocking { try store.stagedCredentials() } == [first, second].sorted())

        let account = LocalAccountID.random()
        try await blocking { try store.activate(first, for: account) }
        #expect(try await blocking { try store.stagedCredentials() } == [second])
        #expect(try await blocking { try store.accountsWithCredential() } == [account])
        #expect(try await blocking { try store.credential(of: account) }.constantTimeEquals(SecretBytes(utf8: "first password")))
        // Activation consumed the staged item.
        await #expect(throws: CredentialStoreError.credentialNotFound) { try await blocking { try store.activate(first, for: account) } }

        // A second activation replaces the active item.
        try await blocking { try store.activate(second, for: account) }
        #expect(try await blocking { try store.credential(of: account) }.constantTimeEquals(SecretBytes(utf8: "second password")))
        #expect(try await blocking { try store.stagedCredentials() }.isEmpty)
        #expect(try await blocking { try store.accountsWithCredential() } == [account])

        let leftover = try await blocking { try store.stage(SecretBytes(utf8: "discard me")) }
        #expect(try await blocking { try store.credential(staged: leftover) }.constantTimeEquals(SecretBytes(utf8: "discard me")))
        try await blocking { try store.discard(leftover) }
        try await blocking { try store.discard(leftover) }  // missing: success
        #expect(try await blocking { try store.stagedCredentials() }.isEmpty)
        await #expect(throws: CredentialStoreError.credentialNotFound) { try await blocking { try store.credential(staged: leftover) } }

        try await blocking { try store.deleteCredential(of: account) }
        try await blocking { try store.deleteCredential(of: account) }  // missing: success
        #expect(try await blocking { try store.accountsWithCredential() }.isEmpty)
        await #expect(throws: CredentialStoreError.credentialNotFound) { try await blocking { try store.credential(of: account) } }
    }

    /// The labels a keyring manager (Seahorse) shows for a staged and an active item, read
    /// back from the keyring: in the store's language, with no secret and no account data
    /// beyond the local ID.
    @Test(arguments: [HandoffLanguage.english, .german])
    func theItemsLabelsAreInTheStoresLanguage(_ language: HandoffLanguage) async throws {
        let namespace = "test-\(UUID().uuidString.lowercased())"
        let store = try await blocking { try SharedSecretService.store(namespace: namespace, language: language) }
        let service = try await blocking { try SharedSecretService.service() }
        let staged = try await blocking { try store.stage(SecretBytes(utf8: "labelled password")) }
        let stagedLabels = try await blocking { try service.labels(ofItemsWith: [("handoff-store", namespace), ("handoff-item", staged.name)]) }
        let account = LocalAccountID.random()
        try await blocking { try store.activate(staged, for: account) }
        let activeLabels = try await blocking { try service.labels(ofItemsWith: [("handoff-store", namespace), ("handoff-item", account.rawValue)]) }
        switch language {
        case .english:
            #expect(stagedLabels == ["AccountHandoff staged credential \(staged.name) (store \(namespace))"])
            #expect(activeLabels == ["AccountHandoff account \(account.rawValue) (store \(namespace))"])
        case .german:
            #expect(stagedLabels == ["AccountHandoff: vorgemerkte Zugangsdaten \(staged.name) (Speicher \(namespace))"])
            #expect(activeLabels == ["AccountHandoff-Konto \(account.rawValue) (Speicher \(namespace))"])
        }
        #expect([store.activeItem(for: account).label] == activeLabels)
        try await blocking { try store.deleteCredential(of: account) }
    }

    /// Every byte value, NUL included, comes back exactly as written.
    @Test func theValueReadBackEqualsWhatWasWrittenByteForByte() async throws {
        let store = try await blocking { try SharedSecretService.store() }
        let bytes = (0...255).map(UInt8.init) + Array("Tr0ub4dor&3 ünïcode €".utf8)
        let staged = try await blocking { try store.stage(SecretBytes(copying: bytes)) }
        #expect(try await blocking { try store.credential(staged: staged) }.revealedBytes() == bytes)
        let account = LocalAccountID.random()
        try await blocking { try store.activate(staged, for: account) }
        let read = try await blocking { try store.credential(of: account) }
        #expect(read.count == bytes.count)
        #expect(read.revealedBytes() == bytes)
        try await blocking { try store.deleteCredential(of: account) }
    }

    @Test func anEmptyCredentialIsRefused() async throws {
        let store = try await blocking { try SharedSecretService.store() }
        await #expect(throws: CredentialStoreError.emptyCredential) { try await blocking { try store.stage(SecretBytes(copying: [UInt8]())) } }
        #expect(try await blocking { try store.stagedCredentials() }.isEmpty)
    }

    @Test func twoNamespacesNeverSeeEachOthersItems() async throws {
        let one = try await blocking { try SharedSecretService.store() }
        let other = try await blocking { try SharedSecretService.store() }
        let account = LocalAccountID.random()
        let mine = try await blocking { try one.stage(SecretBytes(utf8: "one")) }
        let staged = try await blocking { try one.stage(SecretBytes(utf8: "one, active")) }
        try await blocking { try one.activate(staged, for: account) }
        #expect(try await blocking { try other.stagedCredentials() }.isEmpty)
        #expect(try await blocking { try other.accountsWithCredential() }.isEmpty)
        await #expect(throws: CredentialStoreError.credentialNotFound) { try await blocking { try other.credential(of: account) } }
        await #expect(throws: CredentialStoreError.credentialNotFound) { try await blocking { try other.activate(mine, for: account) } }
        // Deleting in the other namespace leaves this one's items alone.
        try await blocking { try other.discard(mine) }
        try await blocking { try other.deleteCredential(of: account) }
        #expect(try await blocking { try one.stagedCredentials() } == [mine])
        #expect(try await blocking { try one.credential(of: account) }.constantTimeEquals(SecretBytes(utf8: "one, active")))
        // The same account ID in the other namespace is a different item.
        let theirs = try await blocking { try other.stage(SecretBytes(utf8: "other")) }
        try await blocking { try other.activate(theirs, for: account) }
        #expect(try await blocking { try one.credential(of: account) }.constantTimeEquals(SecretBytes(utf8: "one, active")))
        #expect(try await blocking { try other.credential(of: account) }.constantTimeEquals(SecretBytes(utf8: "other")))
        try await blocking { try one.discard(mine) }
        try await blocking { try one.deleteCredential(of: account) }
        try await blocking { try other.deleteCredential(of: account) }
    }

    // MARK: Reachability, each on a bus of its own (in a child process)

    @Test func aLockedCollectionIsReportedBeforeAnyPasswordTravels() async throws {
        let service = try ThrowawaySecretService.start(.lockedKeyring)
        defer { service.stop() }
        #expect(try Self.probe("check", environment: service.environment) == "ERROR " + CredentialStoreError.keyringLocked.description)
        #expect(try Self.probe("stage", environment: service.environment) == "ERROR " + CredentialStoreError.keyringLocked.description)
        #expect(CredentialStoreError.keyringLocked.description == "The keyring is locked. Unlock your keyring (GNOME Keyring/KWallet) and try again.")
    }

    @Test func noSecretServiceOnTheBusIsReported() async throws {
        let service = try ThrowawaySecretService.start(.noKeyring)
        defer { service.stop() }
        #expect(try Self.probe("check", environment: service.environment)
                == "ERROR " + CredentialStoreError.secretServiceUnavailable.description)
        #expect(try Self.probe("stage", environment: service.environment)
                == "ERROR " + CredentialStoreError.secretServiceUnavailable.description)
    }

    @Test func noSessionBusIsReported() async throws {
        let scratch = try ImportFixtures.scratchDirectory()
        defer { ImportFixtures.remove(scratch) }
        // No bus address, and a runtime directory without a bus socket.
        let environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path, "XDG_RUNTIME_DIR": scratch.path]
        #expect(try Self.probe("check", environment: environment) == "ERROR " + CredentialStoreError.sessionBusUnavailable.description)
        // An address where nothing listens.
        let dead = environment.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + scratch.appendingPathComponent("no-bus").path]) { _, new in new }
        #expect(try Self.probe("check", environment: dead) == "ERROR " + CredentialStoreError.sessionBusUnavailable.description)
    }

    @Test func anUnlockedKeyringOnAnotherBusIsWritable() async throws {
        let service = try ThrowawaySecretService.start(.unlockedKeyring)
        defer { service.stop() }
        #expect(try Self.probe("check", environment: service.environment) == "OK")
        #expect(try Self.probe("stage", environment: service.environment) == "OK")
    }

    /// Runs `secret-service-probe OPERATION` with exactly `environment`; its output line.
    static func probe(_ operation: String, environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = try CrashProbe.binary(named: "secret-service-probe")
        process.arguments = [operation, "probe-\(UUID().uuidString.lowercased())"]
        process.environment = environment
        let input = InheritanceSafePipe()
        let output = InheritanceSafePipe()
        process.standardInput = input.fileHandleForReading
        process.standardOutput = output.fileHandleForWriting
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        try input.fileHandleForWriting.write(contentsOf: Data("probe password\n".utf8))
        try input.fileHandleForWriting.close()
        let line = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        return line
    }
}
