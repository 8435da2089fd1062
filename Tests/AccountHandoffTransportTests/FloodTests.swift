@testable import AccountHandoff
import AccountHandoffTestSupport
@testable import AccountHandoffTransport
import Foundation
import TestProcesses
import Testing

/// Floods as the attacker plays them (Spec 8.3, "Stray or hostile local peers"; Spec 11.4,
/// 11.6): real sockets, a real sender session on a real listener with the standard limits,
/// and a real receiver session whose transfer must complete.
///
/// The default suite runs each flood by someone who saw the QR once; the slow slice
/// (`HANDOFF_SLOW_TESTS=1`, `Scripts/slow-tests.sh`) runs each ten times and prints the median
/// and worst completion times.
@Suite(.serialized) struct FloodTests {
    static let floodSize = 600

    init() { raiseDescriptorLimit() }

    /// A watcher of the network who never saw the QR: random admission responses, then hellos
    /// with the real transfer ID. None is admitted, no hello reaches the session, and the
    /// honest transfer, which starts with the flood, completes (the receiving person accepts
    /// once the flood is over, so the listener serves all of it).
    @Test func aPassiveWatchersFloodNeverReachesTheSession() async throws {
        let pair = try await SessionPair.start()
        let running = pair.startSender()
        let payload = pair.payload
        let flood = AdmissionFlood(pair.listener, count: Self.floodSize, play: .randomResponse) { Loopback.forgedHello(for: payload) }
        flood.start()
        let outcomes = await pair.transfer(try pair.receiver(), sender: running) { _ = await flood.finished() }
        let report = await flood.finished()
        flood.closeAll()
        #expect(await Loopback.eventually { await pair.listener.statistics.refusedAdmission == report.answered })
        let statistics = await pair.listener.statistics
        await pair.listener.close()
        print("Passive watcher's flood: \(report); honest transfer \(outcomes.completed ? "completed" : "FAILED") in \(summary([outcomes.duration])); listener: \(statistics)")

        #expect(outcomes.completed)
        #expect(report.attempted == Self.floodSize)
        #expect(report.answered == Self.floodSize)
        #expect(report.closedAfterResponse == Self.floodSize)
        #expect(statistics.admitted == 1)  // the honest receiver only
        #expect(statistics.hellosHandedOver == 1)
        #expect(statistics.framesHandedOver == 3)  // hello, accept, receipt
        #expect(statistics.refusedAdmission == report.answered)
        #expect(statistics.closedForIgnoredFrames == 0)
    }

    enum Moment: String, CaseIterable, Sendable {
        case beforeTheReceiverConnects, afterTheReceiverConnected
    }

    /// Someone who saw the QR passes admission: 600 connections, each with one hello for the
    /// real transfer and a random key, before the honest receiver connects, or after it did
    /// (while the transfer is pending: the receiving person accepts once the flood was sent).
    @Test(arguments: Moment.allCases)
    func aFloodBySomeoneWhoSawTheQRDoesNotStopTheTransfer(_ moment: Moment) async throws {
        try await Self.flood(moment, runs: 1)
    }

    /// The same floods, ten runs of each, for the completion times under flood.
    @Test(.slowSlice)
    func aFloodBySomeoneWhoSawTheQRTenTimesEach() async throws {
        for moment in Moment.allCases { try await Self.flood(moment, runs: 10) }
    }

    /// Spec 11.6: someone who saw the QR holds all 256 of the listener's connection slots,
    /// each admitted with a forged hello, and makes again at once every connection the sender
    /// closes; the honest receiver starts 0.3 s after the flood holds them all. No admitted
    /// connection is closed to make room for a new one, so the honest connection keeps its
    /// place once admitted, its hello waits its turn at the gate, and the transfer completes.
    @Test func aFloodHoldingEverySlotDoesNotEndTheTransfer() async throws {
        try await Self.holdEverySlot(runs: 1)
    }

    /// The same flood, twenty runs, for the completion times.
    @Test(.slowSlice)
    func aFloodHoldingEverySlotTwentyTimes() async throws {
        try await Self.holdEverySlot(runs: 20)
    }

    private static func holdEverySlot(runs: Int) async throws {
        var durations: [Duration] = []
        var completed = 0
        for run in 1...runs {
            let pair = try await SessionPair.start()
            let running = pair.startSender()
            let payload = pair.payload
            let capacity = pair.listener.connectionCapacity
            let flood = HeldFlood(pair.listener, keys: pair.keys, count: capacity) { Loopback.forgedHello(for: payload) }
            flood.start()
            let full = await Loopback.eventually(within: .seconds(30)) { flood.isFull }
            try await Task.sleep(for: .milliseconds(300))
            // The hello leaves 0.1 s after admission, as from `handoff receive`, which first
            // records the code as used in its durable registry (Spec 6.3).
            let receiver = try pair.receiver { channel in
                InterceptingChannel(channel) { _ in try? await Task.sleep(for: .milliseconds(100)) }
            }
            let outcomes = await pair.transfer(receiver, sender: running)
            let report = flood.stop()
            let statistics = await pair.listener.statistics
            await pair.listener.close()
            if outcomes.completed { completed += 1 }
            durations.append(outcomes.duration)
            print("Flood holding all \(capacity) slots, run \(run): \(report); honest transfer "
                  + "\(outcomes.completed ? "completed" : "FAILED (\(String(describing: outcomes.sent)), \(String(describing: outcomes.received)))") "
                  + "in \(summary([outcomes.duration])); listener: \(statistics)")
            #expect(capacity == 256)
            #expect(full, "run \(run): the flood never held every slot")
            #expect(outcomes.completed, "run \(run)")
        }
        print("Flood holding every slot: \(completed) of \(runs) honest transfers completed; \(summary(durations))")
    }

    private static func flood(_ moment: Moment, runs: Int) async throws {
        var durations: [Duration] = []
        for run in 1...runs {
            let pair = try await SessionPair.start()
            let running = pair.startSender()
            let payload = pair.payload
            let flood = AdmissionFlood(pair.listener, count: Self.floodSize, play: .admitted(pair.keys)) { Loopback.forgedHello(for: payload) }
            let outcomes: SessionPair.Outcomes
            var report = AdmissionFlood.Report()
            switch moment {
            case .beforeTheReceiverConnects:
                flood.start()
                report = await flood.finished()
                outcomes = await pair.transfer(try pair.receiver(), sender: running)
            case .afterTheReceiverConnected:
                let started = FloodOnce(flood)
                outcomes = await pair.transfer(try pair.receiver(), sender: running) {
                    // The receiver was bound (it got the reveal and the offer); flood now.
                    await started.run()
                }
                report = await flood.finished()
            }
            let statistics = await pair.listener.statistics
            flood.closeAll()
            await pair.listener.close()
            print("Flood by someone who saw the QR, \(moment.rawValue), run \(run): \(report); honest transfer "
                  + "\(outcomes.completed ? "completed" : "FAILED (\(String(describing: outcomes.sent)), \(String(describing: outcomes.received)))") "
                  + "in \(summary([outcomes.duration])); listener: \(statistics)")
            #expect(outcomes.completed, "run \(run)")
            #expect(report.answered > 0)
            #expect(statistics.hellosHandedOver >= 1)
            durations.append(outcomes.duration)
        }
        print("Flood by someone who saw the QR, \(moment.rawValue): honest transfer \(summary(durations))")
    }
}

/// Spec 6.7 with admission: copies of the honest hello on other admitted connections, before
/// and after the honest one (its own suite, so the cases run beside each other).
@Suite struct HelloCopyTests {
    enum Order: String, CaseIterable, Sendable {
        case before, after
    }

    /// Spec 6.7 with admission: copies of the honest hello on other admitted connections, the
    /// session seeing them before or after the honest one, never lock the honest connection
    /// out: it receives the reveal and the transfer completes.
    @Test(arguments: Array(0...16), Order.allCases)
    func copiesOfTheHonestHelloNeverLockTheHonestConnectionOut(_ copies: Int, _ order: Order) async throws {
        let pair = try await SessionPair.start()
        let running = pair.startSender()
        let listener = pair.listener
        let keys = pair.keys
        let holder = PeerHolder()
        let receiver = try pair.receiver { channel in
            InterceptingChannel(channel) { hello in
                switch order {
                case .before:
                    await Self.deliver(copies, of: hello, to: listener, keys: keys, holder: holder, after: 0)
                case .after:
                    holder.start { await Self.deliver(copies, of: hello, to: listener, keys: keys, holder: holder, after: 1) }
                }
            }
        }
        // The session keeps every copy and the honest connection as candidates (up to
        // HandoffSenderSession.maximumCandidates, which is also the listener's bound cap).
        // After: the receiving person accepts only once the session saw every copy.
        let outcomes = await pair.transfer(receiver, sender: running) {
            await holder.delivered()
        }
        let statistics = await listener.statistics
        holder.closeAll()
        await listener.close()
        print("\(copies) copies of the honest hello \(order.rawValue) it: honest transfer \(outcomes.completed ? "completed" : "FAILED") "
              + "in \(summary([outcomes.duration])); listener: \(statistics)")
        #expect(outcomes.completed)
        #expect(statistics.hellosHandedOver == copies + 1)
    }

    /// Sends `count` copies of `hello`, each on its own admitted connection, once the session
    /// was handed `handedBefore` hellos, and waits until it was handed them all.
    static func deliver(_ count: Int, of hello: [UInt8], to listener: FrameListener, keys: TransportKeys, holder: PeerHolder,
                        after handedBefore: Int) async {
        guard count > 0 else { return }
        _ = await Loopback.eventually(within: Patience.deadline) { await listener.statistics.hellosHandedOver >= handedBefore }
        for _ in 0..<count {
            guard let peer = try? await RawPeer.admitted(to: listener, keys: keys, sending: FrameStream.encode(hello)) else { continue }
            holder.keep(peer)
        }
        _ = await Loopback.eventually(within: Patience.deadline) { await listener.statistics.hellosHandedOver >= handedBefore + count }
    }
}

/// Starts a flood once, from whichever task asks first, and waits for it.
final class FloodOnce: @unchecked Sendable {
    // Safety of @unchecked Sendable: `started` is only touched under `lock`.
    private let flood: AdmissionFlood
    private let lock = NSLock()
    private var started = false

    init(_ flood: AdmissionFlood) { self.flood = flood }

    func run() async {
        let first = lock.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        if first { flood.start() }
        _ = await flood.finished()
    }
}

/// Keeps raw peers open for a test's duration, and the task that delivers them.
final class PeerHolder: @unchecked Sendable {
    // Safety of @unchecked Sendable: `peers` and `delivery` are only touched under `lock`.
    private let lock = NSLock()
    private var peers: [RawPeer] = []
    private var delivery: Task<Void, Never>?
    func keep(_ peer: RawPeer) { lock.withLock { peers.append(peer) } }
    func closeAll() { lock.withLock { peers.forEach { $0.close() } } }
    func start(_ body: @escaping @Sendable () async -> Void) { lock.withLock { delivery = Task { await body() } } }
    func delivered() async { await lock.withLock { delivery }?.value }
}
