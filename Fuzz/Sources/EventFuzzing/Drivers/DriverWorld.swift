import AccountHandoff
import AccountHandoffSimulation
import AccountHandoffTestSupport
import Foundation

/// The world of the `FuzzDrivers` target: a ``HandoffSenderSession`` and up to two
/// ``HandoffReceiverSession``s over scripted channels (``ScriptedChannel``), with their
/// people, local-authentication gates, keychain, importers and a manual clock, played by a
/// script of typed events (``DriverEvent``). Every task and actor runs on the fuzzer's thread,
/// one job at a time (``SerialJobs``), and the world lets them settle after each event, so an
/// input runs the same way every time.
///
/// The header sets the sessions up: `header[0]` the sender's options (bits 0-2 how many codes,
/// bit 3 the gate before the QR, bit 4 a 30-second lifetime, bits 5-6 the sender's gate:
/// yes at once, asks the person, cancelled, failed); `header[1]` the keychain (bits 0-2: the
/// password, locked, empty, too long, no guarded memory for it), the receivers' gates (bits 3-4), how they connect
/// (bits 5-6: at once, the sender serves another code, unreachable, when the script says) and
/// bit 7 a QR already used on the receiving device; `header[2]` the importers' plan
/// (``ScriptedImporter``); `header[3]` bit 0 a sender channel that leaves peers to the
/// protocol's defaults, bit 1 a sender registry whose storage fails (plan: the other bits).
///
/// Checks: each session's `run()` returns, once every person cancelled and the clock ran past
/// every deadline; its updates end with exactly one `finished`, carrying that outcome; its
/// channel is closed; every password the keychain handed out is wiped, and it was read only
/// after the gate said yes; the importer is handed exactly the sender's password, and the
/// session wipes it once the import returns; a typed code that matched is the code the
/// receiving device showed; nothing is left running.
final class DriverWorld: @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    let header: [UInt8]
    let tracing: Bool
    var trace: [String] = []
    let scenario = Scenario.standard
    let clock: FuzzClock
    let senderChannel = ScriptedChannel()
    /// The sender channel's view of peers and served QRs, unless the header asks for a plain channel.
    var observing: ObservingChannel?
    let senderGate: ScriptedGate
    let keychain: ScriptedKeychain
    let senderRegistry: SenderRegistry
    /// Connections the script opens (receivers that connect when it says).
    var pendingConnections: [ConnectionGate] = []
    var sender: HandoffSenderSession!
    var senderUpdates: [SenderUpdate] = []
    var senderUpdatesEnded = false
    var senderOutcome: SenderOutcome?
    var receivers: [ReceiverEnd] = []
    var secondDevice: HandoffReceiver?
    /// Codes the sending person typed that matched, and errors the sessions' methods threw.
    var matchedCodes: [String] = []
    var violations: [String] = []

    /// One receiving device: its session, channel, people and apps, as the sender's peers
    /// `index` (its own connection) and `index + 2` (another connection of the same device).
    final class ReceiverEnd: @unchecked Sendable {
        // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
        let index: Int
        let session: HandoffReceiverSession<ScriptedImporter>
        let channel: ScriptedChannel
        let gate: ScriptedGate
        let importer: ScriptedImporter
        var updates: [ReceiverUpdate<ScriptedPreparation>] = []
        var updatesEnded = false
        var outcome: ReceiverOutcome?
        var connected = false

        init(index: Int, session: HandoffReceiverSession<ScriptedImporter>, channel: ScriptedChannel, gate: ScriptedGate,
             importer: ScriptedImporter) {
            self.index = index
            self.session = session
            self.channel = channel
            self.gate = gate
            self.importer = importer
        }

        /// The hello this device sent.
        var helloSent: [UInt8]? { channel.firstSent }

        /// The code this device's screen shows.
        var shownCode: ShortCode? {
            for case .codeReady(let code) in updates.reversed() { return code }
            return nil
        }
    }

    init(header: [UInt8], tracing: Bool) {
        self.header = header
        self.tracing = tracing
        clock = FuzzClock(start: scenario.start)
        senderGate = ScriptedGate(immediate: Self.gateAnswer(header[0] >> 5))
        keychain = ScriptedKeychain(mode: header[1], gate: senderGate)
        let failing = header[3] & 2 != 0 ? try? SenderRegistry(storage: FaultyRegistryStorage(plan: header[3] >> 2)) : nil
        senderRegistry = failing ?? SenderRegistry.inMemory()
    }

    static func gateAnswer(_ bits: UInt8) -> LocalAuthenticationResult? {
        switch bits & 3 {
        case 0: .authenticated
        case 1: nil
        case 2: .cancelled
        default: .failed(.notRecognized)
        }
    }

    func note(_ entry: @autoclosure () -> String) {
        if tracing { trace.append(entry()) }
    }

    func violation(_ message: String) -> InvariantViolation { InvariantViolation(message, trace: trace) }

    /// The QR on the sender's screen now.
    var shownPayload: SessionPayload? {
        for case .showCode(let payload, _, _) in senderUpdates.reversed() { return payload }
        return nil
    }

    /// Runs the script, then ends everything and checks.
    func run(_ script: EventScript, maximumEvents: Int = 48) throws(InvariantViolation) {
        SerialJobs.begin()
        defer { SerialJobs.end() }
        // Jobs left by an input that failed (and is now being run again for its report): a
        // passing input leaves none (checked at its end).
        SerialJobs.settle()
        startSender()
        try settle()
        var unsettled = 0
        for event in script.events.prefix(maximumEvents) {
            if event.kind % UInt8(DriverEvent.allCases.count) == UInt8(DriverEvent.interleave.rawValue) {
                unsettled = 1 + Int(event.operands.first ?? 0) % 4
                note("interleave \(unsettled)")
                continue
            }
            play(event)
            if unsettled > 0 {
                unsettled -= 1
                continue
            }
            try settle()
            note("  [out s:\(senderChannel.outbox.count) r:\(receivers.map(\.channel.outbox.count)); sender \(senderUpdates.last.map { "\($0)".prefix(40) } ?? "-")]")
            if let first = violations.first { throw violation(first) }
            if let spunAt = clock.spunAt { throw spinning(spunAt) }
        }
        try finish()
    }

    func spinning(_ deadline: Date) -> InvariantViolation {
        violation("a session's timer spins at a deadline \(deadline.timeIntervalSince(scenario.start)) s after the start, already past")
    }

    func settle() throws(InvariantViolation) {
        guard SerialJobs.settle() else { throw violation("the sessions never settle") }
    }

    private func startSender() {
        let lifetime: UInt32 = header[0] & 0x10 != 0 ? 30 : 180
        let options = SenderSessionOptions(configuration: try! SenderConfiguration(lifetime: lifetime),
                                           maximumCodes: 1 + Int(header[0] & 7) % 5,
                                           authenticatesBeforeShowingCode: header[0] & 8 != 0)
        let keychain = self.keychain
        observing = header[3] & 1 == 0 ? ObservingChannel(senderChannel) : nil
        sender = HandoffSenderSession(account: scenario.account, rendezvous: scenario.rendezvous, channel: observing ?? senderChannel,
                                      credential: { account in try keychain.read(account) }, authenticator: senderGate,
                                      registry: senderRegistry, options: options, clock: clock,
                                      random: InsecureDeterministicRandom(seed: scenario.senderSeed))
        let session = sender!
        Task {
            for await update in session.updates { self.senderUpdates.append(update) }
            self.senderUpdatesEnded = true
        }
        Task { self.senderOutcome = await session.run() }
    }

    /// A receiving device scans the QR on screen (`mode`: by payload, by its text, with text
    /// that is not a QR); or, while one is connecting, its connection is made or fails.
    func scan(_ mode: UInt8) {
        if let waiting = pendingConnections.first(where: \.isWaiting) {
            note("connection \(mode & 0x80 == 0 ? "made" : "fails")")
            waiting.open(mode & 0x80 == 0)
            if mode & 0x80 == 0, let end = receivers.last { end.connected = true }
            return
        }
        guard receivers.count < 2, let payload = shownPayload else { return }
        let index = receivers.count
        let channel = ScriptedChannel()
        let gate = ScriptedGate(immediate: Self.gateAnswer(header[1] >> 3))
        let importer = ScriptedImporter(plan: header[2] ^ UInt8(index * 0x20))
        let connection = (header[1] >> 5) & 3
        let registry = ReceiverRegistry.inMemory()
        if header[1] & 0x80 != 0, index == 0 {
            // The QR was used on this device before.
            _ = try? HandoffReceiver.scan(payload: payload, random: InsecureDeterministicRandom(seed: 9), now: clock.now(), registry: registry)
        }
        let gateToConnect = ConnectionGate()
        if connection == 3 { pendingConnections.append(gateToConnect) }
        let connect: HandoffReceiverSession<ScriptedImporter>.Connector = { _ in
            switch connection {
            case 1: throw HandoffError.expired
            case 2: throw ScriptedChannel.ChannelFailure()
            case 3:
                guard await gateToConnect.wait() else { throw ScriptedChannel.ChannelFailure() }
                return channel
            default: return channel
            }
        }
        let session: HandoffReceiverSession<ScriptedImporter>
        do {
            if mode % 3 == 0 {
                session = HandoffReceiverSession(payload: payload, importer: importer, authenticator: gate, registry: registry, clock: clock,
                                                 random: InsecureDeterministicRandom(seed: scenario.receiverSeed &+ UInt64(index)),
                                                 connect: connect)
            } else {
                let text = mode % 3 == 1 ? payload.text : payload.text + "0"
                session = try HandoffReceiverSession(scannedText: text, importer: importer, authenticator: gate, registry: registry,
                                                     clock: clock,
                                                     random: InsecureDeterministicRandom(seed: scenario.receiverSeed &+ UInt64(index)),
                                                     connect: connect)
            }
        } catch {
            note("scan refused: \(error.identifier)")
            return
        }
        let end = ReceiverEnd(index: index, session: session, channel: channel, gate: gate, importer: importer)
        end.connected = connection == 0
        receivers.append(end)
        note("receiver\(index) scans")
        Task {
            for await update in session.updates { end.updates.append(update) }
            end.updatesEnded = true
        }
        Task { end.outcome = await session.run() }
    }
}

/// A connection that is made when the script says (or fails).
final class ConnectionGate: @unchecked Sendable {
    // Safety of @unchecked Sendable: every job of a driver input runs on the fuzzer's thread.
    private var waiting: CheckedContinuation<Bool, Never>?
    private var answer: Bool?

    var isWaiting: Bool { waiting != nil }

    func wait() async -> Bool {
        if let answer { return answer }
        return await withCheckedContinuation { waiting = $0 }
    }

    func open(_ made: Bool) {
        answer = made
        let waiting = self.waiting
        self.waiting = nil
        waiting?.resume(returning: made)
    }
}
