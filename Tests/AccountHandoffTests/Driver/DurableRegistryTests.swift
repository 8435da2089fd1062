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
        // Opening a durable registry reads its file: on the I/O pool, as an app does.
        let registry = try await blocking { try SenderRegistry(directory: directory) }
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
        // The outcome is written on the I/O pool shortly after the session ends (Spec 6.3).
        let afterRestart = try await blockingUntil({ try SenderRegistry(directory: directory).status(of: payload.transferID) },
                                                   satisfies: { $0 != .pending })
        #expect(afterRestart == .finished(outcomeIdentifier: "cancelled.local"))
        #expect(SenderRegistry.inMemory().status(of: payload.transferID) == nil)
    }

    @Test func aReceiverRegistryFromADirectoryRefusesAUsedCodeAfterARestart() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let payload = try HandoffSender.start(account: Fixtures.account, rendezvous: Fixtures.rendezvous,
                                              random: InsecureDeterministicRandom(seed: 3), now: Fixtures.start).payload
        try await blocking {
            _ = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 4), now: Fixtures.start,
                                         registry: try ReceiverRegistry(directory: directory))
        }
        let afterRestart = try await blocking { try ReceiverRegistry(directory: directory) }
        #expect(afterRestart.hasClaimed(payload.transferID))
        let again = try await blocking { () -> HandoffError? in
            do {
                _ = try HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 5), now: Fixtures.start, registry: afterRestart)
                return nil
            } catch let error as HandoffError { return error } catch { return nil }
        }
        #expect(again == .alreadyScanned)
    }
}
