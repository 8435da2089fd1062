import AccountHandoff
@testable import AccountHandoffTransport
import Foundation
import Testing

/// A program the app starts while a transfer is pending (a helper, a browser, a script)
/// inherits none of the transfer's sockets, and when the session ends its port and its
/// connection end with it, whatever such a program does.
@Suite struct DescriptorInheritanceTests {
    /// What the peer sees. (Closing shuts the sockets down as well, so this holds even for a
    /// program that did inherit them; the next test pins the flag itself.)
    @Test func aProgramStartedMidTransferKeepsNeitherThePortNorTheConnectionOpen() throws {
        let listener = try AdmissionTests.listener()
        let rendezvous = listener.rendezvous
        let peer = try Loopback.rawConnection(to: rendezvous, sending: rendezvous.preamble)
        defer { peer.close() }
        guard case .connected = try AdmissionTests.event(listener) else {
            Issue.record("the tagged connection was not admitted")
            return
        }
        let program = Process()
        program.executableURL = URL(fileURLWithPath: "/bin/sleep")
        program.arguments = ["10"]
        try program.run()
        defer {
            kill(program.processIdentifier, SIGKILL)
            program.waitUntilExit()
        }

        listener.close()
        #expect(Loopback.peerState(of: peer) == .closed, "the started program holds the accepted connection open")
        #expect(throws: TransportError.connectionRefused, "the started program holds the listening port open") {
            let late = try POSIXSocket.makeTCP()
            defer { late.close() }
            try late.connect(address: rendezvous.address, port: rendezvous.port, timeout: .seconds(2))
        }
        #expect(program.isRunning, "the program must still be running for the test to mean anything")
    }

    /// The same, checked on the flag: listening, connecting and accepted sockets.
    @Test func everySocketOfATransferIsClosedOnExec() throws {
        let server = try POSIXSocket.makeTCP()
        defer { server.close() }
        try server.listen(address: .loopback, port: 0, backlog: 4)
        let client = try POSIXSocket.makeTCP()
        defer { client.close() }
        try client.connect(address: .loopback, port: try server.localPort(), timeout: .seconds(2))
        var accepted: POSIXSocket?
        let deadline = ContinuousClock.now + .seconds(2)
        while accepted == nil, ContinuousClock.now < deadline {
            if case .accepted(let socket) = try server.accept() { accepted = socket } else { usleep(5_000) }
        }
        let serving = try #require(accepted, "the connection was not accepted")
        defer { serving.close() }
        for (name, socket) in [("listening", server), ("connecting", client), ("accepted", serving)] {
            #expect(fcntl(socket.descriptor, F_GETFD) & FD_CLOEXEC == FD_CLOEXEC, "the \(name) socket is inherited by programs the app starts")
        }
    }
}
