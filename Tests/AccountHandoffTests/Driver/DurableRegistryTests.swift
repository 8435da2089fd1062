import AccountHandoffTestSupport
import Foundation
import Testing
@testable import AccountHandoff

/// Registries from a directory in one call: a second registry on the same directory (an app
/// after a restart) knows what the first recorded; memory is a choice named as such.
@Suite struct DurableRegistryTests {
    private static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("registries-\(UUID().uuidString)/nested", isDirectory: true)
    }

    @Test func aSenderRegistryFromADirectoryOutlivesARestart() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let registry = try SenderRegistry(directory: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let sender = HandoffSenderSession(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                          channel: InMemoryFrameChannel.pair().sender,
                                          credential: { _ in Fixtures.secret(Fixtures.password) },
                                          authenticator: ScriptedAuthenticator(always: .authenticated), registry: registry,
                                          clock: ManualHandoffClock(start: Fixtures.start))
        let running = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        running.cancel()
        #expect(await running.value == .ended(.cancelled(by: .local)))
        let afterRestart = try SenderRegistry(directory: directory)
        #expect(afterRestart.status(of: payload.transferID) == .finished(outcomeIdentifier: "cancelled.local"))
        #expect(SenderRegistry.inMemory().status(of: payload.transferID) == nil)
    }

    @Test func aReceiverRegistryFromADirectoryRefusesAUsedCodeAfterARestart() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let payload = try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                              random: InsecureDeterministicRandom(seed: 3), now: Fixtures.start).payload
        _ = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 4), now: Fixtures.start,
                                     registry: try ReceiverRegistry(directory: directory))
        let afterRestart = try ReceiverRegistry(directory: directory)
        #expect(afterRestart.hasClaimed(payload.transferID))
        #expect(throws: HandoffError.alreadyScanned) {
            try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 5), now: Fixtures.start, registry: afterRestart)
        }
    }
}
