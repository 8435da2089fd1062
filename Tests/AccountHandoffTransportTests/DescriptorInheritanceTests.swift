import AccountHandoff
@testable import AccountHandoffTransport
import Foundation
import Testing
import TestProcesses

/// A program the app starts while a transfer is pending (a helper, a browser, a script)
/// inherits none of the transfer's sockets, and when the session ends its port and its
/// connection end with it, whatever such a program does (Spec 8.3).
@Suite(.startsProcesses) struct DescriptorInheritanceTests {
    /// What the peer sees. (Closing shuts the sockets down as well, so this holds even for a
    /// program that did inherit them; the next test pins the flag itself.)
    @Test func aProgramStartedMidTransferKeepsNeitherThePortNorTheConnectionOpen() async throws {
        let (listener, _, keys) = try Loopback.listener(Loopback.sessions)
        let endpoint = try #require(listener.rendezvous.direct)
        let peer = try await RawPeer.admitted(to: listener, keys: keys)
        #expect(await Loopback.eventually { await listener.statistics.admitted == 1 }, "the connection was not admitted")
        let program = Process()
        program.executableURL = URL(fileURLWithPath: "/bin/sleep")
        program.arguments = ["120"]  // killed at the end; long enough for a loaded machine
        try program.run()
        defer {
            kill(program.processIdentifier, SIGKILL)
            program.waitUntilExit()
        }

        await listener.close()
        #expect(await peer.waitForClose(), "the started program holds the accepted connection open")
        await #expect(throws: TransportError.connectionRefused, "the started program holds the listening port open") {
            _ = try await RawPeer.connect(to: endpoint)
        }
        #expect(program.isRunning, "the program must still be running for the test to mean anything")
    }

    /// The same, checked on the flag: the listening, connecting and accepted sockets and the
    /// event loop's own descriptors.
    @Test func everyDescriptorOfATransferIsClosedOnExec() async throws {
        let (listener, payload, _) = try Loopback.listener(Loopback.sessions)
        defer { Task { await listener.close() } }
        let channel = try await ConnectionFrameChannel.connect(to: payload, configuration: Loopback.sessions)
        defer { Task { await channel.close() } }
        #expect(await Loopback.eventually { await listener.statistics.admitted == 1 })
        let listenerSide = await listener.descriptors
        let receiverSide = await channel.descriptors
        #expect(listenerSide.count >= 3)  // listening, accepted, and the loop's poller
        #expect(receiverSide.count == 1)
        for descriptor in listenerSide + receiverSide {
            #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC == FD_CLOEXEC, "descriptor \(descriptor) is inherited by programs the app starts")
        }
    }
}
