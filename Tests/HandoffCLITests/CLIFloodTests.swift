import AccountHandoff
import AccountHandoffTransport
import Foundation
import Testing
import TestProcesses

/// A stray or hostile peer cannot block a transfer (Spec 8.3, 11.6): floods of silent
/// connections, slow and silent connections that passed admission (someone who saw the QR), a
/// replayed hello and thousands of invalid frames, against the real `handoff send`, and the
/// real `handoff receive` still completes. It prints its measurements ("Flood: ...").
///
/// The replay comes after the real hello (a sniffer sees it only once it was sent); a
/// replay that the sender reads first is a scheduling race this test cannot force (the
/// transport tests' `copiesOfTheHonestHelloNeverLockTheHonestConnectionOut` force it).
@Suite(.startsProcesses) struct CLIFloodTests {
    @Test(.slowSlice) func realReceiverCompletesThroughAFloodAndAReplayedHello() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let target = try ScannedTarget(code: code)
        let sniffer = try #require(LoopbackSniffer(port: target.port), "capturing loopback packets needs CAP_NET_RAW (the CI runs as root)")
        defer { sniffer.stop() }

        let flood = ConnectionFlood(target: target, senderPID: sender.pid, perKind: 64)
        flood.start()
        let floodStarted = ContinuousClock.now
        while !flood.isFull, ContinuousClock.now - floodStarted < HandoffProcess.patience { try await Task.sleep(for: .milliseconds(20)) }
        let floodWasFull = flood.isFull

        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\n")
        // The real receiver's hello, taken off the wire, replayed on a connection of our own.
        let hello = await Self.capturedHello(sniffer, target: target, excluding: { flood.ownPorts }, timeout: HandoffProcess.patience)
        let replay = hello == nil ? nil : RawConnection.connect(port: target.port)
        if let replay, let hello, target.admit(replay) { replay.writeAll(hello) }

        // Keep the session pending with the flood on, so the sender's deadlines show in the
        // measurements, then both people type the other device's code.
        while ContinuousClock.now < floodStarted + .seconds(8), receiver.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        var confirmed = true
        do { try await pair.confirmByTypingCodes() } catch { confirmed = false }
        if !confirmed { sender.signal(SIGINT) }
        let (sent, received) = await pair.finish()
        let replayDropped = replay?.waitForPeerClose(timeout: .seconds(60)) ?? false
        let report = flood.stop()
        print("Flood: \(flood.perKind) of each kind kept open (reconnecting), all connected at once: \(floodWasFull); \(report); "
              + "replayed hello: \(hello != nil ? "sent" : "not captured"), its connection closed by the sender: \(replayDropped); "
              + "receiver exit \(received.status), sender exit \(sent.status)")

        #expect(floodWasFull, "the flood never had all \(3 * flood.perKind) connections open")
        #expect(hello != nil, "the real receiver's hello was not captured")
        #expect(received.status == 0, "the real receiver did not complete: \(received.stderr)")
        #expect(sent.status == 0, "the sender did not complete: \(sent.stderr)")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
        #expect(replayDropped, "the connection that replayed the hello is still open after the real receiver was bound")
    }

    @Test(.slowSlice) func twentyThousandInvalidFramesLeaveFewLinesAndTheTransferCompletes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let attacker = InvalidFrameSender(target: try ScannedTarget(code: code), total: 20_000)
        attacker.start()
        let started = ContinuousClock.now + HandoffProcess.patience
        while attacker.progress.framesWritten < 2_000, !attacker.isFinished, ContinuousClock.now < started {
            try await Task.sleep(for: .milliseconds(10))
        }

        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\n")
        // The session stays pending until every frame is written: the listener reads a
        // connection only as the session asks (Spec 11.6), so the attacker's pace is the
        // sender's, and a sender that finished would leave the rest unwritten.
        let deadline = ContinuousClock.now + HandoffProcess.patience
        while !attacker.isFinished, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        var confirmed = true
        do { try await pair.confirmByTypingCodes() } catch { confirmed = false }
        if !confirmed { sender.signal(SIGINT) }
        let (sent, received) = await pair.finish()
        let report = attacker.stop()
        let ignoredLines = sent.stdout.split(separator: "\n").filter { $0.hasPrefix("Ignored ") }
        print("Invalid frames: \(report); the sender printed \(ignoredLines.count) 'Ignored' lines; "
              + "receiver exit \(received.status), sender exit \(sent.status)")

        #expect(report.framesWritten == 20_000)
        #expect(!ignoredLines.isEmpty, "the sender never said it ignored anything")
        #expect(ignoredLines.count <= 10, "\(ignoredLines.joined(separator: "\n"))")
        #expect(report.closedBySender >= 1, "the sender never closed a connection that sent only invalid frames")
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    /// The length-prefixed hello that a client other than the flood sent after its admission
    /// response (Spec 11.4: 20 bytes starting with `AH4B`).
    private static func capturedHello(_ sniffer: LoopbackSniffer, target: ScannedTarget, excluding own: () -> Set<UInt16>,
                                      timeout: Duration) async -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        let helloWireCount = 2 + Frame.headerByteCount + 64
        while ContinuousClock.now < deadline {
            let ours = own()
            for port in sniffer.clientPorts where !ours.contains(port) {
                let stream = sniffer.stream(from: port)
                let start = Admission.responseByteCount
                guard stream.count >= start + helloWireCount, Array(stream[0..<4]) == Admission.responseMagic,
                      stream[start + 2 + 1] == MessageType.hello.rawValue else { continue }
                return Array(stream[start..<(start + helloWireCount)])
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
