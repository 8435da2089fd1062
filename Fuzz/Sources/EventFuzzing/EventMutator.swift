import CLibFuzzer

/// libFuzzer's custom mutator for ``EventScript`` inputs: it inserts, deletes, duplicates,
/// moves and retypes whole events, and hands one event's operands at a time to libFuzzer's own
/// byte mutator (`LLVMFuzzerMutate`, with the dictionary and the comparison tables it learned),
/// so a mutated input stays a sequence of well-formed events that the world can play through
/// its authentication. Once in a while it mutates the raw bytes instead, so that nothing the
/// format can express is out of reach.
public struct EventMutator: Sendable {
    /// The usual operand count of each event kind, indexed by kind; its count is the number of
    /// kinds, so a new event has a kind the world knows and operands it reads.
    public let operandCounts: [Int]
    /// Scripts grow to at most this many events.
    public let maximumEvents: Int

    /// A mutator for a world with these event kinds.
    public init(operandCounts: [Int], maximumEvents: Int = 64) {
        self.operandCounts = operandCounts
        self.maximumEvents = maximumEvents
    }

    /// `LLVMFuzzerCustomMutator`: mutates the input in `data` in place; returns the new size.
    public func mutate(_ data: UnsafeMutablePointer<UInt8>, size: Int, maxSize: Int, seed: UInt32) -> Int {
        var random = MutationRandom(seed: seed)
        if random.below(20) == 0 { return LLVMFuzzerMutate(data, size, maxSize) }
        var script = EventScript(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
        // Several event-level changes in a row now and then, as libFuzzer stacks its own.
        for _ in 0...(random.below(4) == 0 ? random.below(4) : 0) { mutateOnce(&script, &random) }
        var bytes = script.bytes
        while bytes.count > maxSize, !script.events.isEmpty {
            script.events.removeLast()
            bytes = script.bytes
        }
        let count = min(bytes.count, maxSize)
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: count) }
        return count
    }

    /// `LLVMFuzzerCustomCrossOver`: the head of one script's events followed by the tail of the
    /// other's (or one event of the other inserted), at event boundaries.
    public func crossOver(_ first: [UInt8], _ second: [UInt8], into out: UnsafeMutablePointer<UInt8>, maxSize: Int, seed: UInt32) -> Int {
        var random = MutationRandom(seed: seed)
        let a = EventScript(bytes: first)
        let b = EventScript(bytes: second)
        var result = a
        if random.below(3) == 0, !b.events.isEmpty {
            let event = b.events[random.below(b.events.count)]
            result.events.insert(event, at: random.below(result.events.count + 1))
        } else {
            let head = a.events.prefix(random.below(a.events.count + 1))
            let tail = b.events.suffix(from: random.below(b.events.count + 1))
            result.events = Array((head + tail).prefix(maximumEvents))
        }
        var bytes = result.bytes
        while bytes.count > maxSize, !result.events.isEmpty {
            result.events.removeLast()
            bytes = result.bytes
        }
        let count = min(bytes.count, maxSize)
        bytes.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: count) }
        return count
    }

    private func mutateOnce(_ script: inout EventScript, _ random: inout MutationRandom) {
        var events = script.events
        let choice = random.below(100)
        switch choice {
        case 0..<30 where !events.isEmpty:
            // libFuzzer's byte mutations on one event's operands.
            let index = random.below(events.count)
            events[index].operands = mutateOperands(events[index].operands, &random)
        case 0..<48 where events.count < maximumEvents:
            events.insert(newEvent(&random), at: random.below(events.count + 1))
        case 48..<58 where !events.isEmpty:
            let start = random.below(events.count)
            let length = random.below(3) == 0 ? 1 + random.below(min(4, events.count - start)) : 1
            events.removeSubrange(start..<start + length)
        case 58..<66 where !events.isEmpty && events.count < maximumEvents:
            let event = events[random.below(events.count)]
            events.insert(event, at: random.below(events.count + 1))
        case 66..<73 where events.count >= 2:
            let from = random.below(events.count)
            let event = events.remove(at: from)
            events.insert(event, at: random.below(events.count + 1))
        case 73..<80 where !events.isEmpty:
            // Another kind with the same operands; a kind's operands read the same way for
            // related kinds (a frame's direction and index come first).
            events[random.below(events.count)].kind = UInt8(random.below(operandCounts.count))
        case 80..<87 where !events.isEmpty:
            // One operand byte set to a value that steers choices: small, boundary or random.
            let index = random.below(events.count)
            if events[index].operands.isEmpty { events[index].operands = [0] }
            let position = random.below(min(events[index].operands.count, 8))
            let values: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 0x7f, 0x80, 0xfe, 0xff, UInt8(random.below(256))]
            events[index].operands[position] = values[random.below(values.count)]
        case 87..<93 where events.count >= 2 && events.count < maximumEvents:
            // Repeat a run of events (a replayed exchange, a flood).
            let start = random.below(events.count)
            let run = events[start..<min(events.count, start + 1 + random.below(4))]
            events.insert(contentsOf: run.prefix(maximumEvents - events.count), at: random.below(events.count + 1))
        case 93..<97:
            script.header[random.below(EventScript.headerByteCount)] = UInt8(random.below(256))
        default:
            if events.count < maximumEvents { events.append(newEvent(&random)) }
        }
        script.events = events
    }

    private func newEvent(_ random: inout MutationRandom) -> EventScript.Event {
        let kind = random.below(operandCounts.count)
        var operands: [UInt8] = []
        for _ in 0..<operandCounts[kind] {
            // Small values most of the time: operands mostly choose among a few options.
            operands.append(random.below(2) == 0 ? UInt8(random.below(8)) : UInt8(random.below(256)))
        }
        return EventScript.Event(UInt8(kind), operands)
    }

    private func mutateOperands(_ operands: [UInt8], _ random: inout MutationRandom) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: EventScript.maximumOperandCount)
        let size = max(1, operands.count)
        for (index, byte) in operands.enumerated() { buffer[index] = byte }
        if operands.isEmpty { buffer[0] = UInt8(random.below(256)) }
        let newSize = buffer.withUnsafeMutableBufferPointer { LLVMFuzzerMutate($0.baseAddress!, size, $0.count) }
        return Array(buffer.prefix(max(0, min(newSize, EventScript.maximumOperandCount))))
    }
}

/// SplitMix64, seeded by libFuzzer's per-mutation seed, so mutations are reproducible.
struct MutationRandom {
    private var state: UInt64

    init(seed: UInt32) { state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<count` (0 when `count` is 0).
    mutating func below(_ count: Int) -> Int { count > 0 ? Int(next() % UInt64(count)) : 0 }
}
