import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing

/// The tamper matrix: for every frame of a complete session (hello, reveal, offer, accept,
/// credential, receipt), every single-bit flip, truncation at every length, extra bytes,
/// reflection to its own sender, a frame from another session (as is and with this
/// session's transfer ID), delivery twice, delivery out of order and delivery after expiry.
/// Every case must fail closed (ignored with a typed error, or the session ends typed) with
/// both account stores unchanged, and the untouched session must still complete afterwards.
/// All cases run through ``SimulatedWorld``, so every invariant is checked on each one.
@Suite struct TamperMatrixTests {
    static let recording = SessionRecording.standard
    static let frameCount = 6

    /// A world right before frame `index` of the honest session is delivered.
    static func world(before index: Int) throws -> SimulatedWorld {
        let world = try SimulatedWorld()
        for step in SessionScript.honestSteps.prefix(SessionScript.honestDeliverySteps[index]) { try world.apply(step) }
        return world
    }

    struct Tally {
        var cases = 0
        var outcomes: [String: Int] = [:]
        mutating func record(_ outcome: String) {
            cases += 1
            outcomes[outcome, default: 0] += 1
        }
    }

    /// Delivers `bytes` in place of a frame and returns the error it was ignored with.
    static func deliverInstead(_ bytes: [UInt8], in world: SimulatedWorld, direction: Direction) throws -> HandoffError? {
        let senderStore = world.senderStore.snapshot(), receiverStore = world.receiverStore.snapshot()
        let writes = world.receiverStore.writeCount
        try world.apply(.inject(direction, bytes))
        try world.apply(.deliver(direction, (world.inFlight[direction]?.count ?? 1) - 1))
        #expect(world.senderStore.snapshot() == senderStore && world.receiverStore.snapshot() == receiverStore)
        #expect(world.receiverStore.writeCount == writes)
        return world.lastIgnoredError
    }

    @Test(arguments: 0..<6)
    func everyDamagedCopyOfAFrameIsIgnoredAndTheSessionStillCompletes(frameIndex: Int) throws {
        let frame = Self.recording.frames[frameIndex]
        let bytes = frame.bytes
        let world = try Self.world(before: frameIndex)
        var tally = Tally()

        for bit in 0..<(bytes.count * 8) {
            let error = try #require(try Self.deliverInstead(FrameBytes.flippingBit(bytes, bit: bit), in: world, direction: frame.direction),
                                     "bit \(bit) of the \(frame.type) was accepted")
            tally.record("flip:\(error.identifier)")
            let byte = bit / 8
            if byte >= Frame.headerByteCount {
                #expect(error == .authenticationFailed, "body bit \(bit) of the \(frame.type)")
            } else if (FrameBytes.transferIDOffset..<FrameBytes.sequenceOffset).contains(byte) {
                #expect(error == .unknownTransfer)
            } else if byte == 0 {
                #expect(error == .unsupportedVersion(bytes[0] ^ UInt8(1 << (bit % 8))))
            }
        }
        for length in 0..<bytes.count {
            let error = try #require(try Self.deliverInstead(FrameBytes.truncated(bytes, to: length), in: world, direction: frame.direction))
            tally.record("truncate:\(error.identifier)")
        }
        for extra: UInt8 in [0x00, 0x01, 0xff] {
            let error = try #require(try Self.deliverInstead(bytes + [extra], in: world, direction: frame.direction))
            #expect(error == .malformed(.trailingBytes))
            tally.record("extraByte:\(error.identifier)")
        }
        let reflected: Direction = frame.direction == .toSender ? .toReceiver : .toSender
        let reflectedError = try #require(try Self.deliverInstead(bytes, in: world, direction: reflected))
        tally.record("reflected:\(reflectedError.identifier)")
        let foreign = SessionRecording.foreign.frames[frameIndex].bytes
        #expect(try Self.deliverInstead(foreign, in: world, direction: frame.direction) == .unknownTransfer)
        tally.record("otherSession:unknownTransfer")
        var retargeted = foreign
        retargeted.replaceSubrange(2..<18, with: world.sender.payload.transferID.bytes)
        let retargetedError = try #require(try Self.deliverInstead(retargeted, in: world, direction: frame.direction))
        #expect(retargetedError == .authenticationFailed || retargetedError == .replayed)
        tally.record("otherSessionRetargeted:\(retargetedError.identifier)")

        // Delivery twice: the genuine frame is accepted once, its copy is ignored.
        try world.apply(.deliverCopy(frame.direction, 0))
        #expect(world.lastIgnoredError == nil && !world.lastFrameActions.isEmpty)
        try world.apply(.deliver(frame.direction, 0))
        let twice = try #require(world.lastIgnoredError, "a frame was accepted twice")
        #expect(twice == .replayed || twice == .sessionFinished)
        tally.record("twice:\(twice.identifier)")

        // The damaged copies consumed nothing: the rest of the honest schedule completes.
        for step in SessionScript.honestSteps.dropFirst(SessionScript.honestDeliverySteps[frameIndex] + 1) { try world.apply(step) }
        try world.finish()
        #expect(world.outcome(of: .sender) == "completed.imported")
        #expect(world.outcome(of: .receiver) == "completed.imported")
        #expect(tally.cases == bytes.count * 9 + 7)
        print("tamper matrix, \(frame.type) (\(bytes.count) bytes): \(tally.cases) cases: "
              + tally.outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }

    /// A later frame delivered before its time (out of order: an offer overtaking the reveal,
    /// a credential overtaking either, an accept or receipt overtaking the hello...) is ignored,
    /// for every pair of frames travelling the same way; the session then still completes.
    @Test func framesDeliveredBeforeTheirTimeAreIgnored() throws {
        var pairs = 0
        for early in 0..<Self.frameCount {
            for late in (early + 1)..<Self.frameCount where Self.recording.frames[late].direction == Self.recording.frames[early].direction {
                let world = try Self.world(before: early)
                let lateFrame = Self.recording.frames[late]
                let error = try #require(try Self.deliverInstead(lateFrame.bytes, in: world, direction: lateFrame.direction))
                #expect([.outOfOrder, .unexpectedMessage(lateFrame.type, in: .sender(world.sender.phase)),
                         .unexpectedMessage(lateFrame.type, in: .receiver(world.receiver.phase))].contains(error),
                        "frame \(late) before frame \(early): \(error)")
                for step in SessionScript.honestSteps.dropFirst(SessionScript.honestDeliverySteps[early]) { try world.apply(step) }
                try world.finish()
                #expect(world.outcome(of: .receiver) == "completed.imported")
                pairs += 1
            }
        }
        #expect(pairs == 6)
    }

    /// Every frame delivered after every deadline (the receipt wait included) ends its
    /// recipient's session as expired (the sender, waiting for the receipt, as
    /// `deliveredUnconfirmed.expired`), and no store changes because of it.
    @Test(arguments: 0..<6)
    func aFrameAfterExpiryEndsTheSessionExpired(frameIndex: Int) throws {
        let frame = Self.recording.frames[frameIndex]
        let world = try Self.world(before: frameIndex)
        let senderStore = world.senderStore.snapshot(), receiverStore = world.receiverStore.snapshot()
        try world.apply(.advanceClock(seconds: UInt32(world.lastAcceptedTime.timeIntervalSince(world.now))))
        try world.apply(.deliver(frame.direction, 0))
        let expected = frameIndex == 5 ? "deliveredUnconfirmed.expired" : "expired"
        // A recipient that holds the session's keys tells its peer with abort(expired) (Spec 6.0 step 3).
        let tellsThePeer = (1...4).contains(frameIndex)
        #expect(world.lastFrameActions == (tellsThePeer ? ["send"] : []) + ["finished(\(expected))"], "the \(frame.type) after expiry")
        try world.finish()
        #expect(world.senderStore.snapshot() == senderStore && world.receiverStore.snapshot() == receiverStore)
        #expect(world.outcome(of: frame.direction == .toSender ? .sender : .receiver) == expected)
    }
}
