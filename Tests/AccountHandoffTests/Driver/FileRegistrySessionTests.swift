import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// Both session drivers with registries kept in files (Spec 6.3), with the blocking-call check
/// collecting instead of stopping: the sessions register, claim and record the outcome in the
/// files, and no blocking call runs on a thread of Swift concurrency.
@Suite struct FileRegistrySessionTests {
    @Test func aTransferWithFileRegistriesCompletesAndBlocksNoTask() async throws {
        let directory = try RegistryTests.Directory()
        let (senderPath, receiverPath) = (directory.path("sent"), directory.path("scanned"))
        let registries = try await blocking {
            (try SenderRegistry(storage: FileRegistryStorage(path: senderPath)),
             try ReceiverRegistry(storage: FileRegistryStorage(path: receiverPath)))
        }
        let outcomes = Outcomes()
        let caught = await BlockingCallCheck.collect {
            let channels = InMemoryFrameChannel.pair()
            let gate = ScriptedAuthenticator(always: .authenticated)
            let sender = HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
                                              credential: { _ in Fixtures.secret(Fixtures.password) }, authenticator: gate,
                                              registry: registries.0)
            let sent = Task { await sender.run() }
            guard let payload = await sender.shownCode() else { return }
            let receiverChannel = channels.receiver
            let receiver = HandoffReceiverSession(payload: payload, importer: RecordingImporter(), authenticator: gate,
                                                  registry: registries.1) { _ in receiverChannel }
            let people = People.confirmBoth(sender, receiver)
            outcomes.record(await receiver.run(), await sent.value, payload.transferID)
            await people.value
        }
        #expect(caught == [])
        let (received, sent, transferID) = try #require(outcomes.value)
        #expect(received == .completed(.imported))
        #expect(sent == .completed(.imported))
        // The claim is in the receiver's file at once; the sender's outcome follows on the pool
        // and is in its file before the next registration (which writes pending edits first).
        #expect(try await blocking { try FileRegistryStorage(path: receiverPath).load() }.map(\.transferID) == [transferID])
        #expect(registries.0.status(of: transferID) == .finished(outcomeIdentifier: "completed.imported"))
        let restarted = try await blocking { () throws -> SenderRegistry in
            _ = try registries.0.register(SessionPair(seed: 77).sender.payload)  // writes the outcome first
            return try SenderRegistry(storage: FileRegistryStorage(path: senderPath))
        }
        #expect(restarted.status(of: transferID) == .finished(outcomeIdentifier: "completed.imported"))
    }

    /// The typed way (Spec 6.8) with file registries: the receiver claims the typed code when
    /// the `pakeInit` arrives (Spec 6.3), which writes the file on the I/O pool, never on the
    /// session's thread; the claim is in the file, and the same code is refused after a restart.
    @Test func aTypedTransferWithFileRegistriesClaimsTheCodeOffTheTaskThreads() async throws {
        let directory = try RegistryTests.Directory()
        let (senderPath, receiverPath) = (directory.path("sent"), directory.path("scanned"))
        let registries = try await blocking {
            (try SenderRegistry(storage: FileRegistryStorage(path: senderPath)),
             try ReceiverRegistry(storage: FileRegistryStorage(path: receiverPath)))
        }
        let outcomes = Outcomes()
        let caught = await BlockingCallCheck.collect {
            let channels = InMemoryFrameChannel.typedPair(route: .localNetwork)
            let gate = ScriptedAuthenticator(always: .authenticated)
            let sender = HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
                                              credential: { _ in Fixtures.secret(Fixtures.password) }, authenticator: gate,
                                              registry: registries.0, options: SenderSessionOptions(typedRoutes: [.localNetwork]))
            var updates = sender.updates.makeAsyncIterator()
            let sent = Task { await sender.run() }
            guard case .showCode(_, let shown?, _)? = await updates.next(), let code = try? TypedCode(entry: shown.grouped) else { return }
            shown.wipe()
            let claimID = code.claimID
            let receiverChannel = channels.receiver
            let receiver = HandoffReceiverSession(typedCode: code, route: .localNetwork, importer: RecordingImporter(),
                                                  authenticator: gate, registry: registries.1) { _, _ in receiverChannel }
            let accepting = Task {
                for await update in receiver.updates {
                    if case .accountOffered = update { try? await receiver.accept() }
                }
            }
            outcomes.record(await receiver.run(), await sent.value, claimID)
            await accepting.value
            while await updates.next() != nil {}
        }
        #expect(caught == [])
        let (received, sent, claimID) = try #require(outcomes.value)
        #expect(received == .completed(.imported))
        #expect(sent == .completed(.imported))
        #expect(try await blocking { try FileRegistryStorage(path: receiverPath).load() }.map(\.transferID) == [claimID])
        let restarted = try await blocking { try ReceiverRegistry(storage: FileRegistryStorage(path: receiverPath)) }
        #expect(restarted.hasClaimed(claimID))
    }

    /// The outcomes the collected scope saw.
    final class Outcomes: @unchecked Sendable {
        // Safety of @unchecked Sendable: `recorded` is only touched under `lock`.
        private let lock = NSLock()
        private var recorded: (ReceiverOutcome, SenderOutcome, TransferID)?

        func record(_ received: ReceiverOutcome, _ sent: SenderOutcome, _ transferID: TransferID) {
            lock.withLock { recorded = (received, sent, transferID) }
        }

        var value: (ReceiverOutcome, SenderOutcome, TransferID)? { lock.withLock { recorded } }
    }
}
