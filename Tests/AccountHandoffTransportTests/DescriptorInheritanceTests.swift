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

    #if os(Linux)
    /// The attacker's timing: programs started by another thread while the listener accepts a
    /// burst of connections. An accepted socket that got its close-on-exec flag only after
    /// `accept` returned could be inherited in between, and would then outlive its session in
    /// the program; accepted sockets are close-on-exec from birth (`accept4`).
    @Test func programsStartedWhileConnectionsAreAcceptedInheritNone() throws {
        let server = try POSIXSocket.makeTCP()
        defer { server.close() }
        try server.listen(address: .loopback, port: 0, backlog: 128)
        let port = try server.localPort()
        let spawner = ProgramSpawner()
        spawner.start()
        defer { spawner.stopAndKillAll() }
        var acceptedInodes: Set<String> = []
        // Bursts until enough programs started during them (about 20 bursts on an idle machine).
        let giveUp = ContinuousClock.now + .seconds(20)
        while spawner.startedCount < 40, ContinuousClock.now < giveUp {
            let clients = try (0..<96).map { _ in
                let client = try POSIXSocket.makeTCP()
                try client.connect(address: .loopback, port: port, timeout: .seconds(2))
                return client
            }
            var accepted = 0
            let deadline = ContinuousClock.now + .seconds(5)
            while accepted < clients.count, ContinuousClock.now < deadline {
                guard case .accepted(let socket) = try server.accept() else { continue }
                if let inode = DescriptorCensus.socketInode(ofDescriptor: socket.descriptor) { acceptedInodes.insert(inode) }
                socket.close()
                accepted += 1
            }
            clients.forEach { $0.close() }
        }
        let programs = spawner.stop()
        try #require(programs.count >= 40, "too few programs started to mean anything: \(programs.count)")
        let inherited = programs.flatMap { DescriptorCensus.socketInodes(ofProcess: "\($0)") ?? [] }.filter(acceptedInodes.contains)
        #expect(inherited.isEmpty, "\(Set(inherited).count) accepted sockets inherited \(inherited.count) times by \(programs.count) programs")
    }
    #endif
}
