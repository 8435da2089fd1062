import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// An importer that keeps the delivered account after its import, as the documentation tells
/// importers not to, and notes what the credential held while it was importing.
private struct KeepingImporter: AccountImporter {
    let kept: KeptAccount

    func prepareImport(of offer: AccountMetadata) async throws(ImportNotReady) -> KeepingPreparation {
        KeepingPreparation(kept: kept)
    }
}

private struct KeepingPreparation: AccountImportPreparation {
    let kept: KeptAccount

    func checkReady() throws(ImportNotReady) {}

    func importAccount(_ account: ImportedAccount) async -> ImportReport {
        kept.keep(account, readDuringImport: account.credential.revealedBytes(), wipedDuringImport: account.credential.isWiped)
        return ImportReport(status: .imported, message: "Kept the account.")
    }

    func abandon() {}
}

/// What the keeping importer saw and kept.
private final class KeptAccount: @unchecked Sendable {
    // Safety of @unchecked Sendable: the fields are only touched under `lock`.
    private let lock = NSLock()
    private var account: ImportedAccount?
    private var read: [UInt8] = []
    private var wiped = true

    func keep(_ account: ImportedAccount, readDuringImport: [UInt8], wipedDuringImport: Bool) {
        lock.withLock { (self.account, read, wiped) = (account, readDuringImport, wipedDuringImport) }
    }

    var credential: SecretBytes? { lock.withLock { account?.credential } }
    var readDuringImport: [UInt8] { lock.withLock { read } }
    var wipedDuringImport: Bool { lock.withLock { wiped } }
}

/// Spec 6.5: the receiver session wipes the delivered credential as soon as the importer's
/// `importAccount(_:)` returns, so a reference an importer keeps holds zeros afterwards.
@Suite struct ImportedCredentialWipeTests {
    @Test func aCredentialTheImporterKeepsIsWipedOnceImportAccountReturned() async throws {
        let channels = InMemoryFrameChannel.pair()
        let clock = ManualHandoffClock(start: Fixtures.start)
        let gate = ScriptedAuthenticator(always: .authenticated)
        let sender = HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
                                          credential: { _ in Fixtures.secret(Fixtures.password) }, authenticator: gate,
                                          registry: SenderRegistry.inMemory(), clock: clock)
        let sent = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        let kept = KeptAccount()
        let receiverChannel = channels.receiver
        let receiver = HandoffReceiverSession(payload: payload, importer: KeepingImporter(kept: kept), authenticator: gate,
                                              registry: ReceiverRegistry.inMemory(), clock: clock) { _ in receiverChannel }
        let people = People.confirmBoth(sender, receiver)
        #expect(await receiver.run() == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        await people.value

        #expect(!kept.wipedDuringImport, "the importer read the credential before it was wiped")
        #expect(kept.readDuringImport == Array(Fixtures.password.utf8))
        let credential = try #require(kept.credential, "the importer was called")
        #expect(credential.isWiped)
        #expect(credential.isAllZero)
    }
}
