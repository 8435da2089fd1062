import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// The state a view reads without awaiting: each session's snapshot follows its updates, the
/// observable models follow the snapshot on the main actor, and the updates stream holds at most
/// the newest 64 updates for a reader that falls behind, never dropping the final one.
@Suite struct SnapshotTests {
    private struct Devices {
        let clock = ManualHandoffClock(start: Fixtures.start)
        let channels = InMemoryFrameChannel.pair()
        let sender: HandoffSenderSession

        init(maximumCodes: Int = 1) {
            sender = HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous, channel: channels.sender,
                                          credential: { _ in Fixtures.secret(Fixtures.password) },
                                          authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory(),
                                          options: SenderSessionOptions(maximumCodes: maximumCodes), clock: clock)
        }

        func receiver(_ payload: SessionPayload) -> HandoffReceiverSession<RecordingImporter> {
            let channel = channels.receiver
            return HandoffReceiverSession(payload: payload, importer: RecordingImporter(), authenticator: ScriptedAuthenticator(always: .authenticated),
                                          registry: .inMemory(), clock: clock) { _ in channel }
        }
    }

    @Test func bothSnapshotsFollowAWholeTransfer() async throws {
        let devices = Devices()
        let sender = devices.sender
        #expect(sender.snapshot == SenderSnapshot())
        let stages = Task { () -> [SenderSnapshot.Stage] in
            var seen: [SenderSnapshot.Stage] = []
            for await snapshot in sender.snapshotChanges() where seen.last != snapshot.stage { seen.append(snapshot.stage) }
            return seen
        }
        let sent = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        #expect(sender.snapshot.code == payload && sender.snapshot.codesShown == 1)
        let receiver = devices.receiver(payload)
        let people = People.confirmBoth(sender, receiver)
        #expect(await receiver.run() == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        await people.value
        let code = try #require(await receiver.shortCode)
        #expect(sender.snapshot.stage == .finished(.completed(.imported)) && sender.snapshot.outcome == .completed(.imported))
        let seen = await stages.value
        // A follower keeps only the newest snapshot, so it may skip stages, never reorder them.
        let order: [SenderSnapshot.Stage] = [.starting, .showingCode, .typingCode, .waitingForAccept(code),
                                             .receiverAccepted, .authenticating(.sendCredential(Fixtures.account, receiverGate: .asks)), .passwordSent,
                                             .finished(.completed(.imported))]
        let positions = seen.compactMap { order.firstIndex(of: $0) }
        #expect(positions.count == seen.count && positions == positions.sorted() && seen.last == order.last)
        let received = receiver.snapshot
        #expect(received.code == code && received.offered == Fixtures.account && received.expires == payload.expiryDate)
        #expect(received.outcome == .completed(.imported))
        guard case .finished(.completed(.imported), let detail) = received.stage else { throw CancellationError() }
        #expect(detail == "Recorded import: imported.")
        // A follower that starts after the end gets the final snapshot once.
        var late: [SenderSnapshot] = []
        for await snapshot in sender.snapshotChanges() { late.append(snapshot) }
        #expect(late == [sender.snapshot])
    }

    @MainActor @Test func theModelsFollowOnTheMainActor() async throws {
        let devices = Devices()
        let model = SenderModel(following: devices.sender)
        let sender = devices.sender
        let sent = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        let receiver = devices.receiver(payload)
        let receiving = ReceiverModel(following: receiver)
        sent.cancel()
        #expect(await sent.value == .ended(.cancelled(by: .local)))
        while model.snapshot.outcome == nil { await Task.yield() }
        #expect(model.snapshot.stage == .finished(.ended(.cancelled(by: .local))))
        #expect(model.snapshot.code == payload)
        guard case .connecting = receiving.snapshot.stage else { throw CancellationError() }
    }

    /// 100 codes expire unscanned and nobody reads the updates: the stream keeps the newest 64
    /// (codes 38 to 100 and the end); the snapshot knows all 100.
    @Test func updatesNobodyReadsAreBounded() async throws {
        let devices = Devices(maximumCodes: 100)
        let sender = devices.sender
        let sent = Task { await sender.run() }
        for _ in 1...100 {
            let current = try #require(await sender.shownCode())
            while devices.clock.sleeperCount == 0 { await Task.yield() }
            devices.clock.set(current.expiryDate)
            while await sender.payload == current, await sender.outcome == nil { await Task.yield() }
        }
        #expect(await sent.value == .ended(.expired))
        var updates: [SenderUpdate] = []
        for await update in sender.updates { updates.append(update) }
        #expect(updates.count == 64)
        guard case .showCode(_, _, let first) = updates.first, case .finished(.ended(.expired)) = updates.last else {
            throw CancellationError()
        }
        #expect(first == 38)
        #expect(sender.snapshot.codesShown == 100)
    }
}
