import Foundation
import Testing
import TestProcesses

/// Stray connections and lost connections against the real `handoff send` process.
@Suite(.startsProcesses) struct CLITransportFailureTests {
    @Test func strayConnectionsDoNotKillThePendingSession() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let target = try ScannedTarget(code: code)

        // One connection that does not answer the admission challenge, one that does and
        // then sends a frame of junk.
        let stray = try #require(RawConnection.connect(port: target.port))
        #expect(stray.writeAll(Array("hello?\r\n".utf8)))
        let admitted = try #require(RawConnection.connect(port: target.port))
        #expect(target.admit(admitted))
        #expect(admitted.writeAll(ScannedTarget.onTheWire([UInt8](repeating: 0x41, count: 30))))
        #expect(await sender.waitForOutput(containing: "Ignored a message that is not part of this transfer (unsupportedVersion); the transfer goes on.\n") != nil)
        #expect(stray.waitForPeerClose(timeout: .seconds(60)), "the sender keeps a connection that never answered the challenge")

        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\n")
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
    }

    @Test func receiverDyingMidTransferEndsTheSenderWithFailure() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        let shownByReceiver = try await pair.receiversCode()
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write(shownByReceiver + "\n")
        #expect(await pair.receiver.waitForOutput(containing: Asked.importQuestion) != nil)
        pair.receiver.signal(SIGKILL)
        let (sent, received) = await pair.finish()
        #expect(received.killedBySignal)
        #expect(sent.status == 70)
        #expect(sent.stderr == "The transfer failed. The connection to the receiving device was lost; start a new transfer. The password was not sent.\n")
        #expect(await scratch.storeSnapshot() == [:])
    }

    @Test func senderDyingMidTransferEndsTheReceiverWithFailure() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        #expect(await pair.receiver.waitForOutput(containing: "Type it on the sending device; waiting for its person to do so...\n") != nil)
        pair.sender.signal(SIGKILL)
        let (sent, received) = await pair.finish()
        #expect(sent.killedBySignal)
        #expect(received.status == 70)
        #expect(received.stderr == "The transfer failed. The connection to the sending device was lost; ask the sending device for a new code. Nothing was imported.\n")
        #expect(await scratch.storeSnapshot() == [:])
    }
}
