import AccountHandoff
import AccountHandoffSimulation
import AccountHandoffTestSupport
import Foundation

extension DriverWorld {
    /// The receiver a sender-side peer belongs to: peer `i` is receiver `i`'s connection,
    /// peer `i + 2` another connection of the same device; 7 is the second device.
    func receiver(ofPeer peer: FramePeer) -> ReceiverEnd? {
        let index = peer.id % 2
        guard peer.id < 4, index < receivers.count else { return nil }
        return receivers[index]
    }

    static let secondDevicePeer = FramePeer(id: 7)

    func play(_ event: EventScript.Event) {
        var operands = Operands(event.operands)
        let kind = DriverEvent(rawValue: Int(event.kind) % DriverEvent.allCases.count)!
        switch kind {
        case .toReceiver:
            guard !receivers.isEmpty else { return }
            let end = receivers[operands.choice(receivers.count)]
            let frames = senderChannel.outbox.indices.filter { receiver(ofPeer: senderChannel.outbox[$0].peer) === end }
            guard !frames.isEmpty else { return }
            let sent = senderChannel.outbox.remove(at: frames[operands.choice(frames.count)])
            note("toReceiver\(end.index)")
            end.channel.arrive(.frame(sent.frame, from: FramePeer(id: 0)))
        case .toSender:
            guard !receivers.isEmpty else { return }
            let end = receivers[operands.choice(receivers.count)]
            guard !end.channel.outbox.isEmpty else { return }
            let sent = end.channel.outbox.remove(at: operands.choice(end.channel.outbox.count))
            let peer = FramePeer(id: end.index + (operands.byte() & 1 == 0 ? 0 : 2))
            note("toSender from \(peer)")
            senderChannel.arrive(.frame(sent.frame, from: peer))
        case .damage:
            damage(&operands)
        case .peerLeft:
            let side = operands.byte()
            let peer = operands.byte()
            note("peerLeft(\(side & 1),\(peer % 8))")
            if side & 1 == 0 {
                senderChannel.arrive(.peerLeft(FramePeer(id: Int(peer % 8))))
            } else if !receivers.isEmpty {
                receivers[Int(peer) % receivers.count].channel.arrive(.peerLeft(FramePeer(id: 0)))
            }
        case .channelFails:
            let side = operands.byte()
            let mode = operands.byte()
            note("channelFails(\(side & 1),\(mode % 4))")
            let channel = side & 1 == 0 || receivers.isEmpty ? senderChannel : receivers[Int(side >> 1) % receivers.count].channel
            if mode & 1 == 0 { channel.fail() } else { channel.brokenPeers.insert(FramePeer(id: Int(mode >> 1) % 4)) }
        case .senderPerson:
            senderPerson(&operands)
        case .receiverPerson:
            guard !receivers.isEmpty else { return }
            let end = receivers[operands.choice(receivers.count)]
            let operation = operands.byte() % 5
            note("receiver\(end.index).person\(operation)")
            let session = end.session
            switch operation {
            case 0, 1:
                Task {
                    do throws(HandoffError) { try await session.accept() } catch {
                        switch error.kind {
                        case .importChoiceRequired, .invalidEvent, .sessionFinished: break
                        default: self.violations.append("accept threw \(error.identifier)")
                        }
                    }
                }
            case 2:
                Task {
                    do throws(HandoffError) { try await session.reject() } catch {
                        switch error.kind {
                        case .invalidEvent, .sessionFinished: break
                        default: self.violations.append("a receiver's reject threw \(error.identifier)")
                        }
                    }
                }
            case 3:
                Task { await session.cancel() }
            default:
                Task {
                    let outcome = await session.run()
                    _ = await (session.phase, session.shortCode, session.detail, session.expiryDate, session.outcome)
                    if let first = end.outcome, first != outcome { self.violations.append("a second run() returned another outcome") }
                }
            }
        case .gate:
            let device = operands.byte()
            let answers: [LocalAuthenticationResult] = [.authenticated, .cancelled, .failed(.notRecognized), .failed(.lockedOut),
                                                        .failed(.unavailable(detail: "No passcode is set on the fuzz device."))]
            let answer = answers[operands.choice(answers.count)]
            note("gate\(device % 3) answers \(answer)")
            if device % 3 == 0 || receivers.isEmpty {
                senderGate.answer(answer)
            } else {
                receivers[Int(device % 3 - 1) % receivers.count].gate.answer(answer)
            }
        case .importer:
            guard !receivers.isEmpty else { return }
            let end = receivers[operands.choice(receivers.count)]
            note("receiver\(end.index) import finishes")
            end.importer.finishImport(ReceiptStatus.allCases[operands.choice(ReceiptStatus.allCases.count)])
        case .clock:
            clock(&operands)
        case .receiverScans:
            scan(operands.byte())
        case .secondDevice:
            secondDevice(operands.byte())
        case .flood:
            flood(&operands)
        case .interleave:
            break
        case .deliverAll:
            let rounds = 1 + Int(operands.byte() % 4)
            note("deliverAll(\(rounds))")
            for _ in 0..<rounds {
                deliverAll()
                _ = SerialJobs.settle()
            }
        }
    }

    /// Every frame in flight arrives, in order, both ways.
    func deliverAll() {
        let outgoing = senderChannel.outbox
        senderChannel.outbox.removeAll()
        for sent in outgoing {
            if sent.peer == Self.secondDevicePeer {
                secondDeviceReads(sent.frame)
            } else if let end = receiver(ofPeer: sent.peer) {
                end.channel.arrive(.frame(sent.frame, from: FramePeer(id: 0)))
            }
        }
        for end in receivers {
            let incoming = end.channel.outbox
            end.channel.outbox.removeAll()
            for sent in incoming { senderChannel.arrive(.frame(sent.frame, from: FramePeer(id: end.index))) }
        }
    }

    private func damage(_ operands: inout Operands) {
        let toSender = operands.byte() & 1 == 0
        let index = operands.byte()
        let mode = operands.byte() % 3
        let position = Int(operands.byte())
        if toSender {
            guard let end = receivers.first(where: { !$0.channel.outbox.isEmpty }) else { return }
            var frame = end.channel.outbox.remove(at: Int(index) % end.channel.outbox.count).frame
            note("damage toSender mode\(mode)")
            if mode == 0 { return }
            frame = mode == 1 ? FrameBytes.flippingBit(frame, bit: position) : FrameBytes.truncated(frame, to: position)
            senderChannel.arrive(.frame(frame, from: FramePeer(id: end.index)))
        } else {
            guard !senderChannel.outbox.isEmpty else { return }
            let sent = senderChannel.outbox.remove(at: Int(index) % senderChannel.outbox.count)
            note("damage toReceiver mode\(mode)")
            guard mode != 0, let end = receiver(ofPeer: sent.peer) else { return }
            let frame = mode == 1 ? FrameBytes.flippingBit(sent.frame, bit: position) : FrameBytes.truncated(sent.frame, to: position)
            end.channel.arrive(.frame(frame, from: FramePeer(id: 0)))
        }
    }

    private func senderPerson(_ operands: inout Operands) {
        let operation = operands.byte() % 8
        let a = operands.byte()
        let b = operands.byte()
        let session = sender!
        let shown = receivers.lazy.compactMap(\.shownCode).first
        note("sender.person\(operation)")
        switch operation {
        case 0, 1, 2, 3:
            let madeUp = String(format: "%06d", (Int(a) << 8 | Int(b)) % 1_000_000)
            var typed = "12a4" + String(b)
            if operation == 0 { typed = shown?.digits ?? madeUp }
            if operation == 1 { typed = shown?.grouped ?? "123 456" }
            if operation == 2 { typed = madeUp }
            Task {
                do throws(HandoffError) {
                    let result = try await session.enterCode(typed)
                    if result == .matched { self.matchedCodes.append(typed.filter { $0 != " " }) }
                } catch {
                    switch error.kind {
                    case .malformed(.typedCode), .invalidEvent, .sessionFinished: break
                    default: self.violations.append("enterCode threw \(error.identifier)")
                    }
                }
            }
        case 4:
            Task {
                do throws(HandoffError) { try await session.reject() } catch {
                    switch error.kind {
                    case .invalidEvent, .sessionFinished: break
                    default: self.violations.append("the sender's reject threw \(error.identifier)")
                    }
                }
            }
        case 5:
            Task { await session.cancel() }
        case 6:
            Task {
                let shown = await session.shownCode()
                let current = await session.payload
                if shown != nil, current == nil { self.violations.append("shownCode() returned a QR the session does not hold") }
            }
        default:
            Task {
                let outcome = await session.run()
                _ = await (session.phase, session.outcome)
                if let first = self.senderOutcome, first != outcome { self.violations.append("a second run() returned another outcome") }
            }
        }
    }

    private func clock(_ operands: inout Operands) {
        let mode = operands.byte() % 6
        let amount = Double(operands.uint16())
        let now = clock.now()
        switch mode {
        case 0: clock.set(now.addingTimeInterval(amount.truncatingRemainder(dividingBy: 240)))
        case 1: clock.set(now.addingTimeInterval(amount))
        case 2: clock.set(now.addingTimeInterval(-amount.truncatingRemainder(dividingBy: 60)))
        case 3: if let expiry = shownPayload?.expiryDate { clock.set(expiry.addingTimeInterval(amount.truncatingRemainder(dividingBy: 5) - 2)) }
        case 4: clock.set(now.addingTimeInterval(HandoffReceiverSessionTimeout.reveal + amount.truncatingRemainder(dividingBy: 3) - 1))
        default: if let expiry = shownPayload?.expiry {
            clock.set(Date(timeIntervalSince1970: Double(expiry) + Double(HandoffSender.receiptWaitSeconds) + amount.truncatingRemainder(dividingBy: 3)))
        }
        }
        note("clock -> +\(clock.now().timeIntervalSince(scenario.start))")
    }

    /// A second device's bare state machine: it scans the QR on screen and its hello arrives on
    /// a connection of its own; then it reads what the sender sent that connection.
    private func secondDevice(_ operation: UInt8) {
        if operation & 1 == 0 {
            guard secondDevice == nil, let payload = shownPayload,
                  let scanned = try? HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: scenario.attackerSeed),
                                                          now: clock.now()),
                  case .send(let hello)? = scanned.step.actions.first else { return }
            note("secondDevice scans")
            secondDevice = scanned.receiver
            senderChannel.arrive(.frame(hello, from: Self.secondDevicePeer))
        } else {
            let frames = senderChannel.outbox.filter { $0.peer == Self.secondDevicePeer }
            senderChannel.outbox.removeAll { $0.peer == Self.secondDevicePeer }
            note("secondDevice reads \(frames.count)")
            for sent in frames { secondDeviceReads(sent.frame) }
        }
    }

    private func secondDeviceReads(_ frame: [UInt8]) {
        guard let secondDevice, let actions = try? secondDevice.handle(.frameReceived(frame), now: clock.now()).actions else { return }
        for case .send(let reply) in actions { senderChannel.arrive(.frame(reply, from: Self.secondDevicePeer)) }
    }

    /// Frames the session ignores, `count` of them from one peer: junk, or copies of a
    /// receiver's first frame (its hello: a replay, or a candidate on another connection).
    private func flood(_ operands: inout Operands) {
        let count = 1 + Int(operands.byte()) % 120
        let peer = FramePeer(id: Int(operands.byte() % 8))
        let kind = operands.byte()
        let hello = receivers.first.flatMap { end in end.helloSent }
        note("flood(\(count) from \(peer))")
        for index in 0..<count {
            let frame = kind & 1 == 1 && hello != nil ? hello! : [UInt8(index & 0xff), kind, 3]
            senderChannel.arrive(.frame(frame, from: peer))
        }
        if kind & 2 != 0, let end = receivers.first {
            for index in 0..<count { end.channel.arrive(.frame([3, UInt8(index & 0xff)], from: FramePeer(id: 0))) }
        }
    }
}

/// The receiver driver's reveal timeout in seconds.
enum HandoffReceiverSessionTimeout {
    static var reveal: Double { Double(HandoffReceiverSession<ScriptedImporter>.revealTimeout.components.seconds) }
}
