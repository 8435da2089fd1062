import AccountHandoff
import Foundation

/// Exhaustive exploration of schedules on the real state machines: every sequence of up to
/// `depth` effective steps drawn from deliveries (of any frame in flight, so every reordering
/// of the hello, reveal, offer, accept, credential, receipt and aborts is included), drops,
/// each person's confirm/reject/cancel, the sender app's credential, the receiver app's three
/// import results, clock jumps to each deadline (the expiry, the receiver's expiry plus skew,
/// and the sender's receipt wait at expiry + 120 s; a receiver that is importing never
/// expires), ticks and transport loss; optionally a second device that scans the same QR at
/// any point and whose hello races the honest one. (Duplicated frames are left to the tamper
/// matrix and the fuzzers.)
///
/// Each step runs on a fresh replay of its prefix with every property checked; each schedule
/// that ends (both honest sessions finished, the depth reached, or nothing effective left) is
/// driven to its end by ``SimulatedWorld/finish()`` and checked again, outcome truth included.
/// A step that changes nothing (a refused local event, a tick before expiry) is checked and not
/// counted. Worlds with equal ``WorldStateKey`` behave identically, so a subtree is explored
/// once per (state, remaining depth) and its schedules are counted without re-running them.
///
/// Test support only.
public final class ScheduleExplorer {
    /// What an exploration covered.
    public struct Report: Sendable {
        /// The depth bound (effective steps per schedule).
        public let depth: Int
        /// Whether a second device could scan the QR.
        public let secondDevice: Bool
        /// Distinct schedules (sequences of effective steps) covered.
        public var schedules: UInt64 = 0
        /// Distinct (state, remaining depth) nodes expanded.
        public var expandedNodes = 0
        /// Distinct world states seen.
        public var distinctStates = 0
        /// Steps executed for the first time on their prefix, with every property checked.
        public var checkedSteps = 0
        /// Steps re-executed to rebuild a prefix.
        public var replayedSteps = 0
        /// Steps that changed nothing.
        public var noOpSteps = 0
        /// Schedules' ends driven to completion and checked.
        public var finishedLeaves = 0
        /// Leaves where the honest receiver imported the account.
        public var importingLeaves = 0
        /// Leaves cut off by the depth bound while an honest session was still running. Zero
        /// means the exploration is complete: every schedule of the alphabet ends within the bound.
        public var truncatedLeaves = 0
        /// For every (sender outcome, receiver outcome) pair reached, as `"sender | receiver"`
        /// identifiers: how many schedules end in it.
        public var outcomePairs: [String: UInt64] = [:]
    }

    private struct Subtree {
        var schedules: UInt64 = 0
        var pairs: [Int: UInt64] = [:]
    }

    /// Which steps are tried.
    public enum Alphabet: Sendable {
        /// Every step listed above, without a second device.
        case full
        /// A second device that scans the QR at any point races the honest pair over a network
        /// that loses nothing: deliveries in any order, the people confirming, the apps providing
        /// the credential and importing, the clock and ticks; drops, rejections, cancels and
        /// transport loss are left to ``full``, so the race itself can be explored deep enough.
        case secondDeviceRace
    }

    private let depth: Int
    private let scenario: Scenario
    private let alphabet: Alphabet
    private let interner = FrameInterner()
    private var memo: [WorldStateKey: [Int: Subtree]] = [:]
    private var pairNames: [String] = []
    private var pairIndex: [String: Int] = [:]
    private var report: Report

    /// Explores schedules of up to `depth` effective steps of `scenario` drawn from `alphabet`.
    public init(depth: Int, scenario: Scenario = .standard, alphabet: Alphabet = .full) {
        self.depth = depth
        self.scenario = scenario
        self.alphabet = alphabet
        self.report = Report(depth: depth, secondDevice: alphabet == .secondDeviceRace)
    }

    /// Runs the exploration.
    ///
    /// - Throws: ``InvariantViolation`` with the schedule that broke a property.
    public func run() throws(InvariantViolation) -> Report {
        let root = try replay([])
        let tree = try explore(root, prefix: [], remaining: depth)
        report.schedules = tree.schedules
        for (index, count) in tree.pairs { report.outcomePairs[pairNames[index]] = count }
        report.distinctStates = memo.count
        return report
    }

    /// A world at the end of `prefix`, which was already checked step by step when it was
    /// first explored; the replay skips the leak scans but keeps every other check.
    private func replay(_ prefix: [WorldStep]) throws(InvariantViolation) -> SimulatedWorld {
        let world = try SimulatedWorld(scenario: scenario, options: SimulatedWorld.Options(dumpSessions: false))
        world.replaying = true
        for step in prefix { try world.apply(step) }
        world.replaying = false
        report.replayedSteps += prefix.count
        return world
    }

    private func explore(_ world: SimulatedWorld, prefix: [WorldStep], remaining: Int) throws(InvariantViolation) -> Subtree {
        let key = world.stateKey(interner)
        if let known = memo[key]?[remaining] { return known }
        var tree = Subtree()
        var effective = false
        if remaining > 0, !Self.isQuiescent(world) {
            report.expandedNodes += 1
            // A step that changes nothing leaves the world as it was, so the same world serves
            // the next candidate; a world is replayed only after an effective step consumed it.
            var current: SimulatedWorld? = world
            for step in candidates(world) {
                let child: SimulatedWorld
                if let current { child = current } else { child = try replay(prefix) }
                try child.apply(step)
                report.checkedSteps += 1
                guard child.stateKey(interner) != key else {
                    report.noOpSteps += 1
                    current = child
                    continue
                }
                current = nil
                effective = true
                let subtree = try explore(child, prefix: prefix + [step], remaining: remaining - 1)
                tree.schedules += subtree.schedules
                for (pair, count) in subtree.pairs { tree.pairs[pair, default: 0] += count }
            }
        }
        if !effective {
            if remaining == 0, !Self.isQuiescent(world) { report.truncatedLeaves += 1 }
            try world.finish()
            report.finishedLeaves += 1
            if world.receiverImportCommitted { report.importingLeaves += 1 }
            tree = Subtree(schedules: 1, pairs: [pairID(world): 1])
        }
        memo[key, default: [:]][remaining] = tree
        return tree
    }

    private func pairID(_ world: SimulatedWorld) -> Int {
        let name = "\(world.outcome(of: .sender) ?? "-") | \(world.outcome(of: .receiver) ?? "-")"
        if let index = pairIndex[name] { return index }
        pairIndex[name] = pairNames.count
        pairNames.append(name)
        return pairNames.count - 1
    }

    /// Whether both honest sessions have ended: nothing that happens afterwards can change an
    /// outcome, and ``SimulatedWorld/finish()`` checks that every frame still in flight is ignored.
    static func isQuiescent(_ world: SimulatedWorld) -> Bool {
        world.sender.phase == .finished && world.receiver.phase == .finished
    }

    /// The steps tried in `world`.
    func candidates(_ world: SimulatedWorld) -> [WorldStep] {
        let race = alphabet == .secondDeviceRace
        var steps: [WorldStep] = []
        for direction in [Direction.toSender, .toReceiver] {
            for index in (world.inFlight[direction] ?? []).indices {
                steps.append(.deliver(direction, index))
                if !race { steps.append(.drop(direction, index)) }
            }
        }
        for device in Device.allCases {
            for choice in race ? [.confirm] : PersonChoice.allCases { steps.append(.person(device, choice)) }
        }
        steps.append(.provideCredential)
        for status in race ? [.imported] : ReceiptStatus.allCases { steps.append(.importFinished(status)) }
        for deadline in [world.senderExpiry, world.receiverExpiry, world.receiptDeadline] where world.now < deadline {
            steps.append(.advanceClock(seconds: UInt32(deadline.timeIntervalSince(world.now).rounded(.up))))
        }
        for device in Device.allCases {
            steps.append(.tick(device))
            if !race { steps.append(.transportLost(device)) }
        }
        if !race, world.sender.phase == .finished, world.receiver.phase != .finished { steps.append(.senderCloses) }
        if race {
            if world.attacker == nil { steps.append(.attackerScans) }
            for index in (world.inFlight[.toReceiver] ?? []).indices { steps.append(.attackerObserves(index)) }
        }
        return steps
    }
}
