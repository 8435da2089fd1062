import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import Testing

/// A sender session that opens its own listener, and a receiver that connects with the TCP
/// transport, each made in one call: the transfer completes over 127.0.0.1, and the listener
/// ends with its session (a receiver that scans the code afterwards reaches nobody).
@Suite struct SessionOwnedListenerTests {
    @Test func aSessionOwnsItsListenerFromStartToEnd() async throws {
        let sender = try HandoffSenderSession(account: try Loopback.account(), listeningOn: .loopback,
                                              credential: { _ in try SecretBytes(utf8: "correct horse") },
                                              authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory(),
                                              transport: Loopback.sessions)
        let sent = Task { await sender.run() }
        let payload = try #require(await sender.shownCode())
        let receiver = try TestReceiver(scannedText: payload.text, importer: RecordingImporter(),
                                        authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory(),
                                        transport: Loopback.sessions)
        let people = confirmBothSides(sender, receiver)
        #expect(await receiver.run() == .completed(.imported))
        #expect(await sent.value == .completed(.imported))
        await people.value
        let late = try TestReceiver(scannedText: payload.text, importer: RecordingImporter(),
                                    authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory(),
                                    transport: Loopback.sessions)
        #expect(await late.run() == .ended(.failed(.senderUnreachable)))
    }

    /// A listener an app passed as a channel serves one session: the session closes it when it
    /// ends, and a second session on it ends at once as transport lost instead of showing a
    /// code nobody can reach.
    @Test func aListenerServesOneSession() async throws {
        let listener = try FrameListener(configuration: Loopback.sessions)
        let first = try testSender(rendezvous: listener.rendezvous.token, channel: listener)
        let running = Task { await first.run() }
        _ = try #require(await first.shownCode())
        running.cancel()
        #expect(await running.value == .ended(.cancelled(by: .local)))
        let second = try testSender(rendezvous: listener.rendezvous.token, channel: listener)
        #expect(await second.run() == .ended(.failed(.transportLost)))
    }
}
