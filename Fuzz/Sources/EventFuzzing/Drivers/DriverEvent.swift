/// The event kinds of the driver world (an event's kind byte modulo their count).
enum DriverEvent: Int, CaseIterable {
    /// `receiver, index`: a frame the sender sent to that receiver's connection arrives there.
    case toReceiver
    /// `receiver, index, peer`: a frame a receiver sent arrives at the sender, on its own
    /// connection or (`peer` odd) on another one (Spec 6.7: candidates presenting the same hello).
    case toSender
    /// `direction, index, mode, position`: a frame in flight is lost, or arrives damaged.
    case damage
    /// `side, peer`: a connection ends (the sender's peer, or a receiver's channel).
    case peerLeft
    /// `side, mode`: a channel fails: its receive throws, or sends to a peer throw.
    case channelFails
    /// `operation, a, b`: the sending person types a code (the one shown, grouped, wrong,
    /// not a code), declines, cancels, asks for the shown code, or the app runs again.
    case senderPerson
    /// `receiver, operation`: a receiving person accepts, declines, cancels, or runs again.
    case receiverPerson
    /// `device, answer`: the person answers a local-authentication prompt.
    case gate
    /// `receiver, status`: a waiting import finishes.
    case importer
    /// `mode, a, b`: the clock moves (seconds, to the expiry, to the reveal timeout, back).
    case clock
    /// `mode`: a receiving device scans the QR on screen (by payload or text, with its QR
    /// already used, or unable to connect); or, while a receiver is connecting, the connection
    /// is made (or fails).
    case receiverScans
    /// `operation`: a second device's bare state machine scans the QR, its hello arrives on a
    /// connection of its own.
    case secondDevice
    /// `count, peer, kind`: a flood of frames the session ignores.
    case flood
    /// `rounds`: every frame in flight arrives, both ways.
    case deliverAll
    /// `count`: the next 1-4 events happen without the sessions settling in between, so their
    /// jobs interleave (a cancel racing a renewal, a frame racing a decision).
    case interleave

    /// The usual operand count of each kind, for the mutator's new events.
    static let operandCounts: [Int] = allCases.map { kind in
        switch kind {
        case .receiverScans, .secondDevice, .deliverAll, .interleave: 1
        case .peerLeft, .channelFails, .receiverPerson, .gate, .importer: 2
        case .toReceiver, .senderPerson, .clock, .flood: 3
        case .toSender, .damage: 4
        }
    }
}
