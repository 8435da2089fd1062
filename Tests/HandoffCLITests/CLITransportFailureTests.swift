import AccountHandoff
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Stray connections and lost connections against the real `handoff send` process.
@Suite struct CLITransportFailureTests {
    @Test func strayConnectionsDoNotKillThePendingSession() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments(["--yes"]))
        let code = try #require(sender.transferCode())
        let rendezvous = try TCPRendezvous(token: SessionPayload(text: code).rendezvous)

        // One connection without the tag, one with the tag that sends a junk frame.
        let untagged = try POSIXSocket.makeTCP()
        try untagged.connect(address: rendezvous.address, port: rendezvous.port, timeout: .seconds(2))
        try untagged.writeAll(Array("hello?\r\n".utf8), until: .now + .seconds(2))
        let tagged = try FrameConnection.connect(to: rendezvous)
        try tagged.send([UInt8](repeating: 0x41, count: 30))
        #expect(sender.waitForOutput(containing: "Ignored a message from connection #2, which is not part of this transfer (unsupportedVersion); closed that connection.\n") != nil)
        #expect(throws: TransportError.closedByPeer) { try tagged.receive(timeout: .seconds(2)) }
        untagged.close()

        let received = try HandoffProcess.run(scratch.receiveArguments(code, ["--yes"]))
        let sent = sender.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
    }

    @Test func receiverDyingMidTransferEndsTheSenderWithFailure() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments(["--yes"]))
        let code = try #require(sender.transferCode())
        let receiver = try HandoffProcess(scratch.receiveArguments(code))
        #expect(receiver.waitForOutput(containing: "do you want to import this account? [yes/no/cancel] ") != nil)
        kill(receiver.pid, SIGKILL)
        _ = receiver.finish()
        let sent = sender.finish()
        #expect(sent.status == 70)
        #expect(sent.stderr == """
            The other device closed the connection; start a new transfer.
            The transfer failed: The connection to the other device was lost; start a new transfer.

            """)
        #expect(scratch.storeSnapshot() == [:])
    }
}

/// Two devices that both scanned the code: the sender stops the transfer for everyone.
@Suite struct CLIContestedTests {
    @Test func secondReceiverMakesTheTransferContested() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(sender.transferCode())
        let first = try HandoffProcess(scratch.receiveArguments(code))
        #expect(sender.waitForOutput(containing: "Does the receiving device show the code ") != nil)
        let second = try HandoffProcess.run(scratch.receiveArguments(code, ["--yes"]))
        let sent = sender.finish()
        let firstResult = first.finish()
        #expect(sent.status == 69)
        #expect(sent.stderr.hasSuffix("Another device tried to join this transfer; start a new transfer and keep the code private.\n"))
        #expect(firstResult.status == 69)
        #expect(second.status == 70)
        #expect(scratch.storeSnapshot() == [:])
    }
}
