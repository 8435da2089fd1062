/// Seed scripts of the driver world: the honest transfer through both drivers, and stops at
/// each step (cancel, reject, gates that refuse, an expiring QR that is renewed, a second
/// device, lost connections, floods), under several headers.
enum DriverSeeds {
    typealias Event = EventScript.Event

    static func event(_ kind: DriverEvent, _ operands: [UInt8] = []) -> Event { Event(UInt8(kind.rawValue), operands) }

    /// scan, hello, reveal, typed code, offer, accept, accept read, (gate, keychain) credential, import, receipt.
    static var honest: [Event] {
        [event(.receiverScans, [0]), event(.toSender, [0, 0, 0]), event(.toReceiver, [0, 0]), event(.senderPerson, [0]),
         event(.toReceiver, [0, 0]), event(.receiverPerson, [0, 0]), event(.toSender, [0, 0, 0]), event(.toReceiver, [0, 0]),
         event(.toSender, [0, 0, 0])]
    }

    static var all: [EventScript] {
        var seeds = [EventScript(events: honest)]
        let headers: [[UInt8]] = [[0x0c, 0, 0, 0], [0x21, 0x08, 0x10, 0], [0x14, 0x20, 0, 0], [0x40, 0x40, 0x05, 0], [0x60, 0x81, 0x02, 0],
                                  [0x00, 0x01, 0x00, 0], [0x00, 0x02, 0x01, 0], [0x00, 0x18, 0xe0, 0]]
        for header in headers { seeds.append(EventScript(header: header, events: honest + [event(.gate, [0, 0]), event(.gate, [1, 0])])) }
        let endings: [[Event]] = [
            [event(.senderPerson, [5])], [event(.receiverPerson, [0, 3])], [event(.senderPerson, [4])], [event(.receiverPerson, [0, 2])],
            [event(.clock, [3, 0, 3])], [event(.clock, [4, 0, 1])], [event(.peerLeft, [0, 0])], [event(.peerLeft, [1, 0])],
            [event(.channelFails, [0, 0])], [event(.channelFails, [1, 0])], [event(.channelFails, [0, 1])],
            [event(.secondDevice, [0]), event(.secondDevice, [1])], [event(.flood, [15, 1, 1]), event(.flood, [110, 5, 2])],
            [event(.senderPerson, [2, 1, 2]), event(.senderPerson, [2, 1, 2]), event(.senderPerson, [2, 1, 2])],
            [event(.receiverScans, [1]), event(.toSender, [1, 0, 1])], [event(.senderPerson, [6]), event(.senderPerson, [7])],
        ]
        for cut in 0...honest.count {
            for ending in endings { seeds.append(EventScript(events: Array(honest.prefix(cut)) + ending)) }
        }
        // The QR expires unscanned and is renewed; the gate asks and the person answers.
        seeds.append(EventScript(header: [0x04, 0, 0, 0], events: [event(.clock, [3, 0, 3]), event(.clock, [3, 0, 3])] + honest))
        seeds.append(EventScript(header: [0x28, 0x08, 0x10, 0], events: [event(.gate, [0, 0])] + honest
                                 + [event(.gate, [0, 0]), event(.gate, [1, 0]), event(.deliverAll, [2]), event(.importer, [0, 0])]))
        seeds.append(EventScript(header: [0x00, 0x00, 0x00, 0], events: honest.prefix(1) + [event(.deliverAll, [3]), event(.senderPerson, [0]),
                                                                                           event(.deliverAll, [3]), event(.receiverPerson, [0, 0]),
                                                                                           event(.deliverAll, [3])]))
        // The keychain: locked, an empty password, one too long, no guarded memory for it; a
        // plain sender channel; a registry that fails at the first code or at a renewal.
        for header: [UInt8] in [[0, 1, 0, 0], [0, 2, 0, 0], [0, 3, 0, 0], [0, 4, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0x0a], [0x04, 0, 0, 0x1a], [0x04, 0, 0, 0x16]] {
            seeds.append(EventScript(header: header, events: honest))
            seeds.append(EventScript(header: header, events: [event(.clock, [3, 0, 3]), event(.clock, [3, 0, 3])] + honest))
        }
        // A receiver that connects when the script says: cancelled meanwhile, expired meanwhile, made.
        let slow: [UInt8] = [0, 0x60, 0, 0]
        seeds.append(EventScript(header: slow, events: [event(.receiverScans, [0]), event(.receiverPerson, [0, 3]), event(.receiverScans, [0])]))
        seeds.append(EventScript(header: slow, events: [event(.receiverScans, [0]), event(.clock, [3, 0, 4]), event(.receiverScans, [0])]))
        seeds.append(EventScript(header: slow, events: [event(.receiverScans, [0]), event(.receiverScans, [0])] + honest.dropFirst()))
        seeds.append(EventScript(header: slow, events: [event(.receiverScans, [0]), event(.receiverScans, [0x80])]))
        // Races: a cancel in the same moment as an expiry (and the renewal it starts), a frame and a decision.
        seeds.append(EventScript(header: [0x04, 0, 0, 0], events: [event(.interleave, [1]), event(.clock, [3, 0, 3]), event(.senderPerson, [5])]))
        seeds.append(EventScript(events: Array(honest.prefix(5)) + [event(.interleave, [2]), event(.receiverPerson, [0, 0]),
                                                                    event(.receiverPerson, [0, 3]), event(.toSender, [0, 0, 0])]))
        return seeds
    }
}
