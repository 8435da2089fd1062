import AccountHandoff
import AccountHandoffReferenceStore
import Foundation
import Testing
import TestProcesses

/// After an import the receiver says where the account and its password now are (no mail app
/// reads the store by itself): the store and its local ID, and the keyring item (label and
/// attributes) or the password file. What it names is where the password really is.
@Suite(.startsProcesses) struct CLIWhereImportedTests {
    @Test func aKeyringImportNamesTheStoreAndTheKeyringItem() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let received = try await Self.importOnce(scratch)
        let id = try #require(await scratch.storedAccount?.id)
        let record = try String(contentsOf: scratch.store.appendingPathComponent("credential-store"), encoding: .utf8)
        let namespace = try #require(record.split(whereSeparator: \.isWhitespace).last.map(String.init))
        let store = scratch.store.path
        #expect(received.stdout.hasSuffix("""
            The account is now in the store \(store) as local ID \(id) (list it with 'handoff accounts --store \(store)'), and its password is in your keyring's default collection as the item "AccountHandoff account \(id) (store \(namespace))" with the attributes handoff-store=\(namespace) handoff-state=active handoff-item=\(id) (for example: secret-tool lookup handoff-store \(namespace) handoff-item \(id)).
            Done: the account was imported.

            """), "\(received.stdout)")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8), "the named item holds the password")
    }

    @Test func aFilesImportNamesTheStoreAndThePasswordFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let received = try await Self.importOnce(scratch, receiver: ["--credentials", "files"])
        let id = try #require(await scratch.storedAccount?.id)
        let file = try #require(await scratch.credentialFile)
        let store = scratch.store.path
        #expect(received.stdout.hasSuffix("""
            The account is now in the store \(store) as local ID \(id) (list it with 'handoff accounts --store \(store)'), and its password is in the file \(file.path), readable only by you.
            Done: the account was imported.

            """), "\(received.stdout)")
        #expect(try Data(contentsOf: file) == Data(HandoffProcess.testPassword.utf8), "the named file holds the password")
    }

    private static func importOnce(_ scratch: Scratch, receiver: [String] = []) async throws -> HandoffProcess.Result {
        let pair = try await TransferPair.start(scratch, receiver: receiver)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(received.status == 0, "\(received.stderr)")
        return received
    }
}
