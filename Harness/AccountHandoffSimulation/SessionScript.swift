import AccountHandoff

/// The byte format fuzz target 5 reads: one option byte (bit 0 careless people, bit 1
/// registries), then up to ``maximumSteps`` steps of two bytes each (a selector and an
/// operand, plus extra bytes for a few steps). Every byte string decodes to some script.
///
/// Test support only.
public enum SessionScript {
    /// The most steps one input runs.
    public static let maximumSteps = 64

    /// Decodes `input` into a world and its steps, runs them, then finishes the world.
    /// `dumpSessions` also scans the sessions' `dump` output (the fuzzer skips it for speed, and
    /// the step trace unless `tracing`).
    ///
    /// - Throws: ``InvariantViolation`` when a property breaks.
    @discardableResult
    public static func run(_ input: inout FuzzInput, dumpSessions: Bool = true, tracing: Bool = true) throws(InvariantViolation) -> SimulatedWorld {
        let flags = input.byte()
        let options = SimulatedWorld.Options(carelessPeople: flags & 1 == 1, useRegistries: flags & 2 == 2, dumpSessions: dumpSessions,
                                             tracing: tracing)
        let world = try SimulatedWorld(options: options)
        var steps = 0
        while !input.isExhausted, steps < maximumSteps {
            try world.apply(decodeStep(&input))
            steps += 1
        }
        try world.finish()
        return world
    }

    /// Decodes one step.
    public static func decodeStep(_ input: inout FuzzInput) -> WorldStep {
        let selector = input.byte() % 25
        let operand = input.byte()
        let direction: Direction = operand & 1 == 0 ? .toReceiver : .toSender
        let index = Int(operand >> 1)
        let device: Device = operand & 1 == 0 ? .sender : .receiver
        switch selector {
        case 0...3: return .deliver(direction, index)
        case 4: return .deliverCopy(direction, index)
        case 5: return .drop(direction, index)
        case 6: return .reorder(direction, index)
        case 7: return .damage(direction, index, .flipBit(Int(input.uint16())))
        case 8: return .damage(direction, index, .truncate(Int(input.uint16()) % 1100))
        case 9: return .damage(direction, index, .append(input.byte()))
        case 10: return .damage(direction, index, .overwrite(Int(input.uint16()), input.byte()))
        case 11: return .inject(direction, input.lengthPrefixed(maximum: 1100))
        case 12: return .injectForeign(direction, index, retargeted: operand & 2 == 2)
        case 13: return .attackerScans
        case 14: return .attackerObserves(index)
        case 15: return operand & 1 == 0 ? .attackerAccepts : .attackerSendsReceipt
        case 16, 17: return .person(device, PersonChoice.allCases[(index) % PersonChoice.allCases.count])
        case 18: return .provideCredential
        case 19: return .importFinished(ReceiptStatus.allCases[index % ReceiptStatus.allCases.count])
        case 20: return .advanceClock(seconds: operand > 250 ? UInt32(operand - 250) * 60 : UInt32(operand))
        case 21: return .tick(device)
        case 22: return .transportLost(device)
        case 23: return .rescan
        default: return .senderCloses
        }
    }

    /// The bytes that decode to `steps` (for seeds). Only the steps a seed needs are encodable;
    /// indices must be below 128.
    public static func encode(_ steps: [WorldStep], carelessPeople: Bool = false, useRegistries: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [(carelessPeople ? 1 : 0) | (useRegistries ? 2 : 0)]
        func directed(_ direction: Direction, _ index: Int) -> UInt8 { UInt8(index << 1) | (direction == .toReceiver ? 0 : 1) }
        func deviceBit(_ device: Device) -> UInt8 { device == .sender ? 0 : 1 }
        for step in steps {
            switch step {
            case .deliver(let d, let i): bytes += [0, directed(d, i)]
            case .deliverCopy(let d, let i): bytes += [4, directed(d, i)]
            case .drop(let d, let i): bytes += [5, directed(d, i)]
            case .reorder(let d, let i): bytes += [6, directed(d, i)]
            case .damage(let d, let i, .flipBit(let bit)): bytes += [7, directed(d, i), UInt8(bit >> 8 & 0xff), UInt8(bit & 0xff)]
            case .damage(let d, let i, .truncate(let length)): bytes += [8, directed(d, i), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
            case .damage(let d, let i, .append(let byte)): bytes += [9, directed(d, i), byte]
            case .damage(let d, let i, .overwrite(let position, let byte)):
                bytes += [10, directed(d, i), UInt8(position >> 8 & 0xff), UInt8(position & 0xff), byte]
            case .inject(let d, let raw): bytes += [11, directed(d, 0), UInt8(raw.count >> 8 & 0xff), UInt8(raw.count & 0xff)] + raw
            case .injectForeign(let d, let i, let retargeted): bytes += [12, directed(d, i) | (retargeted ? 2 : 0)]
            case .attackerScans: bytes += [13, 0]
            case .attackerObserves(let i): bytes += [14, UInt8(i << 1)]
            case .attackerAccepts: bytes += [15, 0]
            case .attackerSendsReceipt: bytes += [15, 1]
            case .person(let device, let choice):
                bytes += [16, UInt8(PersonChoice.allCases.firstIndex(of: choice)! << 1) | deviceBit(device)]
            case .provideCredential: bytes += [18, 0]
            case .importFinished(let status): bytes += [19, UInt8(ReceiptStatus.allCases.firstIndex(of: status)! << 1)]
            case .advanceClock(let seconds): bytes += [20, UInt8(min(seconds, 250))]
            case .tick(let device): bytes += [21, deviceBit(device)]
            case .transportLost(let device): bytes += [22, deviceBit(device)]
            case .rescan: bytes += [23, 0]
            case .senderCloses: bytes += [24, 0]
            }
        }
        return bytes
    }

    /// The honest schedule from scan to receipt: hello, reveal, the sending person confirms,
    /// offer, the receiving person confirms, accept, credential, import, receipt.
    public static let honestSteps: [WorldStep] = [
        .deliver(.toSender, 0), .deliver(.toReceiver, 0), .person(.sender, .confirm), .deliver(.toReceiver, 0),
        .person(.receiver, .confirm), .deliver(.toSender, 0), .provideCredential, .deliver(.toReceiver, 0),
        .importFinished(.imported), .deliver(.toSender, 0),
    ]

    /// Where each frame of the honest session (hello, reveal, offer, accept, credential,
    /// receipt) is delivered in ``honestSteps``.
    public static let honestDeliverySteps = [0, 1, 3, 5, 7, 9]
}
