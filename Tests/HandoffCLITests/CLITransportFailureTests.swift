import Foundation
import Testing

/// Stray connections and lost connections against the real `handoff send` process.
@Suite struct CLITransportFailureTests {
    @Test func strayConnectionsDoNotKillThePendingSession() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let target = try ScannedTarget(code: code)

        // One connection without the tag, one with the tag that sends a frame of junk.
        let untagged = try #require(RawConnection.connect(port: target.port))
        #expect(untagged.writeAll(Array("hello?\r\n".utf8)))
        let tagged = try #require(RawConnection.connect(port: target.port))
        #expect(tagged.writeAll(target.preamble + ScannedTarget.onTheWire([UInt8](repeating: 0x41, count: 30))))
        #expect(await sender.waitForOutput(containing: "Ignored a message that is not part of this transfer (unsupportedVersion); the transfer goes on.\n") != nil)
        #expect(untagged.waitForPeerClose(timeout: .seconds(10)), "the sender keeps a connection that never presented the tag")

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
        let shownByReceiver = try #require(await pair.receiver.shortCode())
        #expect(await pair.sender.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.sender.write(shownByReceiver + "\n")
        #expect(await pair.receiver.waitForOutput(containing: Asked.codeQuestion) != nil)
        pair.receiver.signal(SIGKILL)
        let (sent, received) = await pair.finish()
        #expect(received.killedBySignal)
        #expect(sent.status == 70)
        #expect(sent.stderr == "The transfer failed: The connection to the receiving device was lost; start a new transfer. The password was not sent.\n")
        #expect(scratch.storeSnapshot() == [:])
    }

    @Test func senderDyingMidTransferEndsTheReceiverWithFailure() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        #expect(await pair.receiver.waitForOutput(containing: "Waiting for the sending device to confirm the code...\n") != nil)
        pair.sender.signal(SIGKILL)
        let (sent, received) = await pair.finish()
        #expect(sent.killedBySignal)
        #expect(received.status == 70)
        #expect(received.stderr == "The transfer failed: The connection to the sending device was lost; ask the sending device for a new code. Nothing was imported.\n")
        #expect(scratch.storeSnapshot() == [:])
    }
}
