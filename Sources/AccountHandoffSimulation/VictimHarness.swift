@_spi(Testing) import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// One real session (the victim) attacked through its peer: the peer is the real opposite
/// state machine, so it can produce genuine frames, and it can also forge authenticated
/// frames with arbitrary plaintexts (a malicious peer that holds the session keys).
///
/// Checks on the victim: frames never make it throw; an ignored frame changes nothing; a
/// frame it acts on is one the peer produced (genuine or forged) and is acted on once; a
/// decoded offer or credential re-encodes to exactly the forged plaintext (strict parsing);
/// refused local events are typed misuse errors that change nothing; it ends in exactly one
/// terminal state with every secret zero; no frame or error it emits contains key material.
///
/// Test support only: fuzz targets 3 (victim = sender) and 4 (victim = receiver).
public final class VictimHarness {
    let victim: Device
    let sender: HandoffSender
    let receiver: HandoffReceiver
    var now: Date
    var toVictim: [[UInt8]] = []
    var toPeer: [[UInt8]] = []
    var peerProduced: Set<[UInt8]> = []
    var victimAccepted: Set<[UInt8]> = []
    var forgedPlaintexts: [[UInt8]: [UInt8]] = [:]
    var finishedCount = 0
    let leaks: LeakScanner
    var trace: [String] = []

    /// Starts the standard scenario's two machines; the receiver's hello is in flight to the sender.
    public init(victim: Device, scenario: Scenario = .standard) throws(InvariantViolation) {
        self.victim = victim
        self.now = scenario.start
        self.leaks = LeakScanner(password: "\u{0}unused-password-needle\u{0}")
        do {
            sender = try HandoffSender.start(account: scenario.account, rendezvous: scenario.rendezvous,
                                             random: InsecureDeterministicRandom(seed: scenario.senderSeed), now: now)
            let scanned = try HandoffReceiver.scan(payload: sender.payload, random: InsecureDeterministicRandom(seed: scenario.receiverSeed), now: now)
            receiver = scanned.receiver
            guard case .send(let hello) = scanned.actions[0] else { throw InvariantViolation("scan sent no hello") }
            if victim == .sender { deliverable(hello) } else { toPeer.append(hello) }
        } catch let violation as InvariantViolation {
            throw violation
        } catch {
            throw InvariantViolation("the honest start failed: \(error)")
        }
    }

    private func deliverable(_ frame: [UInt8]) {
        peerProduced.insert(frame)
        toVictim.append(frame)
    }

    private var victimObservation: [String] {
        victim == .sender
            ? [sender.state.rawValue, String(describing: sender.outcome), String(describing: sender.shortCode)]
            : [receiver.state.rawValue, String(describing: receiver.outcome), String(describing: receiver.offeredAccount)]
    }

    /// How the victim's session ended, once it has.
    public var victimOutcome: TransferOutcome? { victim == .sender ? sender.outcome : receiver.outcome }

    private var victimSecrets: [SecretBytes] { victim == .sender ? sender.guardedSecrets : receiver.guardedSecrets }

    private func violation(_ message: String) -> InvariantViolation { InvariantViolation("\(victim) victim: \(message)", trace: trace) }

    /// Runs the script in `input` (one byte opcode per step, operands after it), then the end checks.
    ///
    /// - Throws: ``InvariantViolation`` naming the broken property.
    public func run(_ input: inout FuzzInput, maximumSteps: Int = 48) throws(InvariantViolation) {
        var steps = 0
        while !input.isExhausted, steps < maximumSteps {
            try step(&input)
            steps += 1
        }
        trace.append("finish")
        now = now.addingTimeInterval(10_000)
        _ = try victimLocal(.tick)
        guard finishedCount == 1 else { throw violation("did not end in exactly one terminal state") }
        guard victimSecrets.allSatisfy({ $0.isAllZero }) else { throw violation("secrets left after the end") }
    }

    /// The victim's local events, by opcode operand.
    enum LocalEvent: CaseIterable { case confirm, reject, cancel, credential, importImported, importDeclined, tick, transportLost }

    private func step(_ input: inout FuzzInput) throws(InvariantViolation) {
        leaks.learn(sender.guardedSecrets + receiver.guardedSecrets)
        let opcode = input.byte() % 11
        switch opcode {
        case 0:
            let bytes = input.lengthPrefixed(maximum: Frame.maximumByteCount + 8)
            trace.append("raw(\(bytes.count))")
            try deliverToVictim(bytes)
        case 1:
            let type = input.byte() % 8
            let sequence = UInt32(input.byte() % 6)
            let lengthChoice = input.byte()
            let bodyLength = lengthChoice < 200 ? (MessageType(rawValue: type).map(FrameBytes.typicalBodyLength) ?? 17) : Int(lengthChoice) * 4
            var body = input.bytes(bodyLength)
            body += [UInt8](repeating: 0, count: bodyLength - body.count)
            let frame = FrameBytes.make(type: type, transferID: sender.payload.transferID.bytes, sequence: sequence, body: body)
            trace.append("shaped(t\(type),s\(sequence),\(bodyLength))")
            try deliverToVictim(frame)
        case 2, 3, 4:
            guard !toVictim.isEmpty else { return }
            let index = input.index(below: toVictim.count)
            var frame = toVictim[index]
            if opcode == 2 { toVictim.remove(at: index) }
            if opcode == 4 { frame = FrameBytes.flippingBit(frame, bit: Int(input.uint16())) }
            trace.append(["deliver", "replay", "damaged"][Int(opcode) - 2] + "#\(index)")
            try deliverToVictim(frame)
        case 5:
            guard !toPeer.isEmpty else { return }
            let frame = toPeer.removeFirst()
            trace.append("peerReads")
            peerHandles { () throws(HandoffError) in
                victim == .sender ? try receiver.handle(.frameReceived(frame), now: now) : try sender.handle(.frameReceived(frame), now: now)
            }
        case 6:
            let choice = input.byte() % 5
            trace.append("peerLocal\(choice)")
            peerHandles { () throws(HandoffError) in
                if victim == .sender {
                    switch choice {
                    case 0: try receiver.handle(.codeConfirmed, now: now)
                    case 1: try receiver.handle(.codeRejected, now: now)
                    case 2: try receiver.handle(.cancel, now: now)
                    case 3: try receiver.handle(.importFinished(.imported), now: now)
                    default: try receiver.handle(.importFinished(.validationFailed), now: now)
                    }
                } else {
                    switch choice {
                    case 0: try sender.handle(.codeConfirmed, now: now)
                    case 1: try sender.handle(.codeRejected, now: now)
                    case 2: try sender.handle(.cancel, now: now)
                    default: try sender.handle(.credentialProvided(SecretBytes(utf8: "peer-password")), now: now)
                    }
                }
            }
        case 7:
            try forge(&input)
        case 8:
            let event = LocalEvent.allCases[input.index(below: LocalEvent.allCases.count)]
            trace.append("local.\(event)")
            let length = Int(input.uint16()) % 1100
            _ = try victimLocal(event, credentialLength: length)
        case 9:
            let seconds = input.byte()
            trace.append("clock+\(seconds)")
            now = now.addingTimeInterval(TimeInterval(seconds))
        default:
            let recorded = SessionRecording.foreign.frames
            var frame = recorded[input.index(below: recorded.count)].bytes
            if input.byte() & 1 == 1 { frame.replaceSubrange(2..<18, with: sender.payload.transferID.bytes) }
            trace.append("foreign")
            try deliverToVictim(frame)
        }
    }

    private func forge(_ input: inout FuzzInput) throws(InvariantViolation) {
        let types: [MessageType] = victim == .sender ? [.accept, .receipt, .abort] : [.offer, .credential, .abort]
        let type = types[input.index(below: types.count)]
        let mode = input.byte()
        var plaintext: [UInt8]
        switch type {
        case .offer:
            // Either a valid record with fuzzed tail bytes, or raw fuzzed bytes padded to a block.
            if mode & 1 == 0 {
                plaintext = OfferPlaintextCodec.encode(Scenario.standard.account)
                for _ in 0..<Int(mode >> 4) { plaintext[input.index(below: 256) % plaintext.count] = input.byte() }
            } else {
                plaintext = input.lengthPrefixed(maximum: 768)
                let padded = max(256, (plaintext.count + 255) / 256 * 256)
                if mode & 2 == 0 { plaintext += [UInt8](repeating: 0, count: padded - plaintext.count) }
            }
        case .credential:
            let length = Int(input.uint16())
            let fill = input.byte()
            plaintext = [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            plaintext += [UInt8](repeating: fill, count: min(max(0, length), 1022))
            plaintext += [UInt8](repeating: mode & 1 == 0 ? 0 : mode, count: max(0, 1024 - plaintext.count))
            if mode & 2 == 2 { plaintext = Array(plaintext.prefix(Int(mode) * 5)) }
        default:
            plaintext = mode < 200 ? [input.byte()] : input.bytes(Int(mode) % 4)
        }
        let frame = victim == .sender
            ? receiver.sealForgedFrame(type, plaintext: plaintext)
            : sender.sealForgedFrame(type, plaintext: plaintext)
        trace.append("forged.\(type)(\(plaintext.count))")
        guard let frame else { return }
        forgedPlaintexts[frame] = plaintext
        deliverable(frame)
    }

    private func peerHandles(_ body: () throws(HandoffError) -> [HandoffAction]) {
        guard let actions = try? body() else { return }
        for case .send(let frame) in actions { deliverable(frame) }
    }

    private func deliverToVictim(_ frame: [UInt8]) throws(InvariantViolation) {
        let before = victimObservation
        let actions: [HandoffAction]
        do {
            actions = victim == .sender ? try sender.handle(.frameReceived(frame), now: now) : try receiver.handle(.frameReceived(frame), now: now)
        } catch {
            throw violation("threw \(error.identifier) for a frame")
        }
        if actions.count == 1, case .ignored = actions[0] {
            guard victimObservation == before else { throw violation("changed state on an ignored frame") }
        } else if actions.count == 1, case .finished(.expired) = actions[0] {
        } else {
            guard peerProduced.contains(frame) else { throw violation("acted on a frame its peer never produced") }
            guard victimAccepted.insert(frame).inserted else { throw violation("acted on the same frame twice") }
            if let plaintext = forgedPlaintexts[frame] { try checkStrictDecoding(actions, plaintext: plaintext) }
        }
        try absorb(actions)
    }

    private func checkStrictDecoding(_ actions: [HandoffAction], plaintext: [UInt8]) throws(InvariantViolation) {
        for action in actions {
            switch action {
            case .showAccount(let account):
                guard OfferPlaintextCodec.encode(account) == plaintext else { throw violation("an offer decoded but does not re-encode to its plaintext") }
            case .deliverAccount(let imported):
                let length = Int(plaintext[0]) << 8 | Int(plaintext[1])
                guard plaintext.count == 1024, length <= 1022, imported.credential.constantTimeEquals(SecretBytes(copying: plaintext[2..<2 + length])),
                      plaintext[(2 + length)...].allSatisfy({ $0 == 0 }) else {
                    throw violation("a credential plaintext decoded although it is not canonical")
                }
            case .finished(.completed(let status)):
                guard plaintext == [status.rawValue] else { throw violation("a receipt decoded to the wrong status") }
            default:
                break
            }
        }
    }

    private func victimLocal(_ event: LocalEvent, credentialLength: Int = 8) throws(InvariantViolation) -> [HandoffAction]? {
        let before = victimObservation
        let credential = SecretBytes(copying: [UInt8](repeating: 0x70, count: credentialLength))
        let actions: [HandoffAction]
        do {
            if victim == .sender {
                switch event {
                case .confirm: actions = try sender.handle(.codeConfirmed, now: now)
                case .reject: actions = try sender.handle(.codeRejected, now: now)
                case .cancel: actions = try sender.handle(.cancel, now: now)
                case .credential, .importImported, .importDeclined: actions = try sender.handle(.credentialProvided(credential), now: now)
                case .tick: actions = try sender.handle(.tick, now: now)
                case .transportLost: actions = try sender.handle(.transportLost, now: now)
                }
            } else {
                switch event {
                case .confirm: actions = try receiver.handle(.codeConfirmed, now: now)
                case .reject: actions = try receiver.handle(.codeRejected, now: now)
                case .cancel: actions = try receiver.handle(.cancel, now: now)
                case .credential, .importImported: actions = try receiver.handle(.importFinished(.imported), now: now)
                case .importDeclined: actions = try receiver.handle(.importFinished(.declined), now: now)
                case .tick: actions = try receiver.handle(.tick, now: now)
                case .transportLost: actions = try receiver.handle(.transportLost, now: now)
                }
            }
        } catch {
            switch error {
            case .invalidEvent, .sessionFinished: break
            case .malformed(.credential) where victim == .sender && (credentialLength == 0 || credentialLength > 1022): break
            default: throw violation("threw \(error.identifier) for a local event")
            }
            guard victimObservation == before else { throw violation("changed state while refusing a local event") }
            guard credential.isAllZero || victim == .receiver || ![LocalEvent.credential, .importImported, .importDeclined].contains(event) else {
                throw violation("kept a refused credential unwiped")
            }
            try leaks.check(text: error.description, "thrown error")
            return nil
        }
        if victim == .sender, [LocalEvent.credential, .importImported, .importDeclined].contains(event), !credential.isAllZero {
            throw violation("kept the provided credential unwiped")
        }
        try absorb(actions)
        return actions
    }

    private func absorb(_ actions: [HandoffAction]) throws(InvariantViolation) {
        leaks.learn(sender.guardedSecrets + receiver.guardedSecrets)
        for action in actions {
            switch action {
            case .send(let frame):
                try leaks.check(bytes: frame, "a frame the victim sent")
                toPeer.append(frame)
            case .finished:
                finishedCount += 1
                guard finishedCount == 1 else { throw violation("finished twice") }
                guard victimSecrets.allSatisfy({ $0.isAllZero }) else { throw violation("finished with secrets in memory") }
            case .ignored(let error):
                try leaks.check(text: error.description, "ignored error")
            case .showShortCode, .showAccount, .requestCredential, .deliverAccount:
                break
            }
        }
    }
}
