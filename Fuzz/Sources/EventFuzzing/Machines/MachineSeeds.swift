import AccountHandoffSimulation

/// Seed scripts of the machine world: the honest transfer, and that transfer stopped after
/// each of its steps by each way a session ends (expiry, cancel, reject, a failed gate, a
/// store failure, a lost transport, a second device, forged frames), under each setup.
enum MachineSeeds {
    typealias Event = EventScript.Event

    static func event(_ kind: MachineEvent, _ operands: [UInt8] = []) -> Event { Event(UInt8(kind.rawValue), operands) }

    static let toSender: UInt8 = 0
    static let toReceiver: UInt8 = 1
    static var passwordLength: UInt8 { UInt8(Scenario.markerPassword.utf8.count) }

    /// hello, reveal, typed code, offer, accept, accept read, password, credential, import, receipt.
    static var honest: [Event] {
        [event(.deliver, [toSender, 0]), event(.deliver, [toReceiver, 0]), event(.senderLocal, [0]),
         event(.deliver, [toReceiver, 0]), event(.receiverLocal, [0]), event(.deliver, [toSender, 0]),
         event(.senderLocal, [6, 0, passwordLength, 0]), event(.deliver, [toReceiver, 0]),
         event(.receiverLocal, [5, 0]), event(.deliver, [toSender, 0])]
    }

    static var all: [EventScript] {
        var seeds = [EventScript(events: honest)]
        // Each setup: registries in memory, in files, failing; another lifetime; another start.
        for header: [UInt8] in [[10, 0, 0, 0], [12, 0, 0, 0], [12, 2, 1, 0], [13, 0x13, 0x22, 0], [14, 20, 60, 1], [15, 0, 0, 8]] {
            seeds.append(EventScript(header: header, events: honest + [event(.registry, [3]), event(.registry, [4])]))
        }
        let endings: [[Event]] = [
            [event(.clock, [3, 0, 2]), event(.senderLocal, [9]), event(.receiverLocal, [6])],
            [event(.clock, [4, 0, 3]), event(.receiverLocal, [6]), event(.deliver, [toSender, 0])],
            [event(.senderLocal, [5]), event(.deliver, [toReceiver, 1])],
            [event(.receiverLocal, [2]), event(.deliver, [toSender, 1])],
            [event(.senderLocal, [4]), event(.receiverLocal, [1])],
            [event(.senderLocal, [7]), event(.senderLocal, [8])],
            [event(.receiverLocal, [3]), event(.receiverLocal, [4])],
            [event(.senderLocal, [10]), event(.receiverLocal, [7])],
            [event(.secondDevice, [0]), event(.deliver, [toSender, 1]), event(.secondDevice, [1, 0])],
            [event(.senderLocal, [2, 1, 2, 3]), event(.senderLocal, [2, 1, 2, 3]), event(.senderLocal, [2, 1, 2, 3])],
            [event(.forge, [toReceiver, 3, 0, 1, 0]), event(.forge, [toSender, 2, 0, 2, 0])],
        ]
        for cut in 0...honest.count {
            for ending in endings { seeds.append(EventScript(events: Array(honest.prefix(cut)) + ending)) }
        }
        // The password copied into the sender's arena (`credential(copying:)`).
        let copied = event(.senderLocal, [6, 0, passwordLength, 0x10])
        seeds.append(EventScript(events: Array(honest.prefix(6)) + [copied] + Array(honest.dropFirst(7))))
        // Forged frames of every kind at the state that expects them.
        seeds.append(EventScript(events: [event(.forge, [toReceiver, 0, 0x40, 0, 0])] + Array(honest.dropFirst(2))))
        seeds.append(EventScript(events: Array(honest.prefix(3)) + [event(.forge, [toReceiver, 1, 1, 7, 0x41])]))
        seeds.append(EventScript(events: Array(honest.prefix(7)) + [event(.forge, [toReceiver, 2, 7, 2, 0x55]), event(.receiverLocal, [5, 2])]))
        seeds.append(EventScript(events: Array(honest.prefix(9)) + [event(.forge, [toSender, 1, 0, 0, 0])]))
        seeds.append(EventScript(events: Array(honest.prefix(5)) + [event(.forge, [toSender, 0, 0x80, 0, 0])]))
        // Probes after the honest run.
        for operation: UInt8 in 0..<10 { seeds.append(EventScript(header: [11, 0, 0, 0], events: honest + [event(.registry, [operation, 3, 1])])) }
        // Registry files: fuzzed contents, odd things at the path, a full quota, two registries on one file.
        let file = Array("\(String(repeating: "ab", count: 16)) 1800000180 -\n".utf8)
        for a: UInt8 in [0, 4, 8, 12] { seeds.append(EventScript(events: honest + [event(.registry, [8, a, 1] + file)])) }
        for choice: UInt8 in 0..<11 { seeds.append(EventScript(events: honest + [event(.registry, [8, 2, choice]), event(.registry, [8, 6, choice])])) }
        for operation: UInt8 in 0..<6 { seeds.append(EventScript(events: Array(honest.prefix(4)) + [event(.scanProbe, [operation, 0x80, 0, 9, 1])])) }
        for what: UInt8 in 0..<4 { seeds.append(EventScript(events: Array(honest.prefix(6)) + [event(.render, [what, 3])])) }
        seeds.append(EventScript(events: [event(.clock, [6, 0, 4])] + honest + [event(.foreign, [2, 1]), event(.raw, [0, 0, 30, 7])]))
        return seeds
    }
}
