import AccountHandoff
import AccountHandoffTestSupport
import AccountHandoffSimulation
import Foundation

extension MachineWorld {
    /// Plays one event.
    func play(_ event: EventScript.Event) throws(InvariantViolation) {
        var operands = Operands(event.operands)
        let kind = MachineEvent(rawValue: Int(event.kind) % MachineEvent.allCases.count)!
        switch kind {
        case .deliver, .replay, .drop:
            let side: Side = operands.byte() & 1 == 0 ? .sender : .receiver
            let queue = kind == .replay ? history[side.rawValue] : inFlight[side.rawValue]
            guard !queue.isEmpty else { return }
            let index = operands.choice(queue.count)
            note("\(kind)(\(side),#\(index))")
            if kind != .replay { inFlight[side.rawValue].remove(at: index) }
            if kind != .drop { try deliver(queue[index], to: side) }
        case .damage:
            try damage(&operands)
        case .forge:
            try forge(&operands)
        case .shaped:
            try shaped(&operands)
        case .raw:
            let side: Side = operands.byte() & 1 == 0 ? .sender : .receiver
            let length = operands.uint16() % (Frame.maximumByteCount + 9)
            let fill = operands.byte()
            var bytes = Array(operands.rest().prefix(length))
            bytes += [UInt8](repeating: fill, count: length - bytes.count)
            note("raw(\(side),\(length))")
            try deliver(bytes, to: side)
        case .senderLocal:
            try senderLocal(&operands)
        case .receiverLocal:
            try receiverLocal(&operands)
        case .clock:
            try clock(&operands)
        case .secondDevice:
            try secondDevice(&operands)
        case .foreign:
            let recorded = fixtures.foreignFrames[operands.choice(fixtures.foreignFrames.count)]
            var bytes = recorded.bytes
            if operands.byte() & 1 == 1 { bytes.replaceSubrange(2..<18, with: sender.payload.transferID.bytes) }
            let side: Side = recorded.direction == .toSender ? .sender : .receiver
            note("foreign(\(recorded.type))")
            try deliver(bytes, to: side)
        case .registry:
            try registry(&operands)
        case .scanProbe:
            try scanProbe(&operands)
        case .render:
            try render(&operands)
        }
    }

    /// Hands `frame` to `side` and checks what it did.
    func deliver(_ frame: [UInt8], to side: Side) throws(InvariantViolation) {
        let before = observation(side)
        let wasFinished = isFinished(side)
        let seconds = max(machineTime[side.rawValue], now.timeIntervalSince1970)
        let expiresFirst = before.deadline.map { seconds >= $0.timeIntervalSince1970 } ?? false
        let ignored: Bool
        switch side {
        case .sender:
            let actions: [SenderAction]
            do { actions = try sender.handle(.frameReceived(frame), now: now).actions } catch {
                throw violation("the sender threw \(error.identifier) for a frame")
            }
            ignored = actions.count == 1 && { if case .ignored = actions[0] { true } else { false } }()
            try check(frame, side: side, ignored: ignored, before: before, counts: !wasFinished && !expiresFirst)
            try absorb(actions)
        case .receiver:
            let actions: [ReceiverAction]
            do { actions = try receiver.handle(.frameReceived(frame), now: now).actions } catch {
                throw violation("the receiver threw \(error.identifier) for a frame")
            }
            ignored = actions.count == 1 && { if case .ignored = actions[0] { true } else { false } }()
            try check(frame, side: side, ignored: ignored, before: before, counts: !wasFinished && !expiresFirst)
            try absorb(actions)
        }
        machineTime[side.rawValue] = seconds
        note(ignored ? "  ignored" : "  acted")
    }

    private func check(_ frame: [UInt8], side: Side, ignored: Bool, before: Observation, counts: Bool) throws(InvariantViolation) {
        if ignored {
            guard observation(side) == before else { throw violation("the \(side) changed its state on a frame it ignored") }
        } else if counts {
            guard produced[side.rawValue].contains(frame) else { throw violation("the \(side) acted on a frame no peer produced") }
            guard acted[side.rawValue].insert(frame).inserted else { throw violation("the \(side) acted on the same frame twice") }
        }
    }

    private func damage(_ operands: inout Operands) throws(InvariantViolation) {
        let side: Side = operands.byte() & 1 == 0 ? .sender : .receiver
        let queue = history[side.rawValue]
        guard !queue.isEmpty else { return }
        var frame = queue[operands.choice(queue.count)]
        let mode = operands.byte() % 4
        let position = operands.uint16()
        let value = operands.byte()
        switch mode {
        case 0: frame = FrameBytes.flippingBit(frame, bit: position)
        case 1: frame = FrameBytes.truncated(frame, to: position % max(1, frame.count))
        case 2: frame += [UInt8](repeating: value, count: 1 + position % 17)
        default: if !frame.isEmpty { frame[position % frame.count] = value }
        }
        note("damaged(\(side),mode\(mode))")
        try deliver(frame, to: side)
    }

    private func shaped(_ operands: inout Operands) throws(InvariantViolation) {
        let side: Side = operands.byte() & 1 == 0 ? .sender : .receiver
        let type = operands.byte() % 9
        let sequenceChoice = operands.byte()
        let sequence: UInt32 = sequenceChoice < 0xf0 ? UInt32(sequenceChoice % 6) : UInt32.max - UInt32(sequenceChoice & 0x0f)
        let lengthChoice = operands.byte()
        let bodyLength = lengthChoice < 200 ? (MessageType(rawValue: type).map(FrameBytes.typicalBodyLength) ?? 17) : Int(lengthChoice) * 4
        var body = Array(operands.rest().prefix(bodyLength))
        body += [UInt8](repeating: 0, count: bodyLength - body.count)
        let version = lengthChoice == 199 ? SessionPayload.currentVersion - 1 : SessionPayload.currentVersion
        note("shaped(\(side),t\(type),s\(sequence),\(bodyLength))")
        try deliver(FrameBytes.make(version: version, type: type, transferID: sender.payload.transferID.bytes, sequence: sequence,
                                    body: body), to: side)
    }

    // MARK: Forged frames

    /// The other machine, turned malicious, seals a frame of its choosing with the session's
    /// real keys; it arrives at once.
    private func forge(_ operands: inout Operands) throws(InvariantViolation) {
        let side: Side = operands.byte() & 1 == 0 ? .sender : .receiver
        let types: [MessageType] = side == .sender ? [.accept, .receipt, .abort, .offer, .credential, .reveal]
                                                   : [.reveal, .offer, .credential, .abort, .accept, .receipt]
        let type = types[operands.choice(types.count)]
        let mode = operands.byte()
        let a = operands.byte()
        let b = operands.byte()
        var plaintext = canonicalPlaintext(type, choice: a)
        switch mode % 8 {
        case 1: if !plaintext.isEmpty { plaintext[Int(a) % plaintext.count] = b }
        case 2: plaintext = Array(plaintext.prefix(Int(a) << 2 | Int(b & 3)))
        case 3: plaintext += [UInt8](repeating: b, count: 1 + Int(a))
        case 4: plaintext = operands.rest()
        case 5: plaintext = []
        case 6: plaintext = [a]
        case 7 where type == .credential:
            let length = Int(a) << 2 | Int(b & 3)
            plaintext = [UInt8(length >> 8), UInt8(length & 0xff)] + [UInt8](repeating: b | 1, count: min(length, 1022))
            plaintext += [UInt8](repeating: 0, count: max(0, 1024 - plaintext.count))
        default: break
        }
        let linkID = mode & 0x80 != 0 ? AccountLinkID(bytes: [UInt8](repeating: mode, count: 16)) : fixtures.scenario.account.linkID
        let frame: [UInt8]?
        if side == .receiver, type == .reveal, mode & 0x40 != 0 || sender.phase == .awaitingHello {
            frame = revealAtSequenceZero(plaintext)
        } else if side == .sender {
            frame = receiver.sealForgedFrame(type, plaintext: plaintext, linkID: linkID)
        } else {
            frame = sender.sealForgedFrame(type, plaintext: plaintext, linkID: linkID)
        }
        note("forged(\(side),\(type),\(plaintext.count))")
        guard let frame else { return }
        forgedTo[side.rawValue] = true
        history[side.rawValue].append(frame)
        produced[side.rawValue].insert(frame)
        try deliver(frame, to: side)
    }

    /// The plaintext an honest peer would seal for `type`.
    private func canonicalPlaintext(_ type: MessageType, choice: UInt8) -> [UInt8] {
        switch type {
        case .reveal: fixtures.nonce
        case .offer: VectorPrimitives.offerPlaintext(fixtures.scenario.account)
        case .credential: (try? VectorPrimitives.credentialPlaintext(fixtures.scenario.passwordBytes)) ?? []
        case .receipt: [1 + choice % 6]
        case .abort: [1 + choice % 7]
        case .accept: [1 + choice % 3]  // receiverGate 1, 2, and 3 (undefined, Spec 3.6)
        case .hello, .pakeInit, .pakeReply, .pakeConfirm, .pakeRefused: []
        }
    }

    /// A reveal sealed at sequence 0 (where the receiver expects it), with keys derived from the
    /// sender's seed and the honest hello through the package's primitives (Spec 4.1-4.3): what a
    /// sender that never accepted this hello, or already used sequence 0, could still seal.
    private func revealAtSequenceZero(_ plaintext: [UInt8]) -> [UInt8]? {
        let payload = receiver.payload!  // the machines scan QRs: a receiver here always has its payload
        let receiverKey = Array(hello[Frame.headerByteCount..<Frame.headerByteCount + 32])
        guard let shared = try? VectorPrimitives.x25519(privateKey: fixtures.senderPrivateKey, peer: receiverKey) else { return nil }
        let th0 = VectorPrimitives.sha256([Array("AH4 transcript".utf8), payload.binary])
        let handshakeHash = VectorPrimitives.sha256([th0, receiverKey])
        let th1 = VectorPrimitives.sha256([th0, hello])
        let prk = VectorPrimitives.hkdfExtract(salt: handshakeHash, inputKeyMaterial: [shared, payload.commitment])
        guard let key = try? VectorPrimitives.hkdfExpand(pseudorandomKey: prk, info: Array("AH4 s2r".utf8), length: 32) else { return nil }
        let header = VectorPrimitives.frameHeader(type: .reveal, transferID: payload.transferID, sequence: 0, bodyLength: plaintext.count + 16)
        let expiry = payload.expiry
        let additionalData = header + [UInt8(expiry >> 24), UInt8(expiry >> 16 & 0xff), UInt8(expiry >> 8 & 0xff), UInt8(expiry & 0xff)] + th1
        guard let sealed = try? VectorPrimitives.seal(key: key, nonce: VectorPrimitives.nonce(sequence: 0), plaintext: plaintext,
                                                      additionalData: additionalData) else { return nil }
        return header + sealed
    }
}
