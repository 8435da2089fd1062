import AccountHandoff
import Foundation

/// Exhaustive exploration of schedules on the real state machines: every sequence of up to
/// `depth` effective steps drawn from deliveries (of any frame in flight, so reorderings are
/// included), drops, each person's confirm/reject/cancel, the sender app's credential, the
/// receiver app's three import results, clock jumps to each expiry, ticks and transport loss.
/// (Duplicated frames are left to the tamper matrix and the fuzzers.)
///
/// Each step runs on a fresh replay of its prefix with every property checked; each schedule
/// that ends (depth reached or nothing effective left) is driven to its end by
/// ``SimulatedWorld/finish()`` and checked again. A step that changes nothing (a refused
/// local event, a tick before expiry) is checked and not counted. Worlds with equal
/// ``WorldStateKey`` behave identically, so a subtree is explored once per (state, remaining
/// depth) and its schedules are counted without re-running them.
///
/// Test support only.
public final class ScheduleExplorer {
    /// What an exploration covered.
    public struct Report: Sendable {
        /// The depth bound (effective steps per schedule).
        public let depth: Int
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
        /// Leaves cut off by the depth bound while something could still happen (a session
        /// running, a frame in flight or a deadline ahead). Zero means the exploration is
        /// complete: every schedule of the alphabet ends within the bound.
        public var truncatedLeaves = 0
        /// Every (sender outcome, receiver outcome) pair reached at a leaf, as `"sender | receiver"`.
        public var outcomePairs: Set<String> = []
    }

    private let depth: Int
    private let scenario: Scenario
    private let interner = FrameInterner()
    private var memo: [WorldStateKey: [Int: UInt64]] = [:]
    private var report: Report

    /// Explores schedules of up to `depth` effective steps of `scenario`.
    public init(depth: Int, scenario: Scenario = .standard) {
        self.depth = depth
        self.scenario = scenario
        self.report = Report(depth: depth)
    }

    /// Runs the exploration.
    ///
    /// - Throws: ``InvariantViolation`` with the schedule that broke a property.
    public func run() throws(InvariantViolation) -> Report {
        let root = try replay([])
        report.schedules = try count(root, prefix: [], remaining: depth)
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

    private func count(_ world: SimulatedWorld, prefix: [WorldStep], remaining: Int) throws(InvariantViolation) -> UInt64 {
        let key = world.stateKey(interner)
        if let known = memo[key]?[remaining] { return known }
        var total: UInt64 = 0
        var effective = false
        if remaining > 0 {
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
                total += try count(child, prefix: prefix + [step], remaining: remaining - 1)
            }
        }
        if !effective {
            if remaining == 0, !Self.isQuiescent(world) { report.truncatedLeaves += 1 }
            try world.finish()
            report.finishedLeaves += 1
            if world.receiverImportCommitted { report.importingLeaves += 1 }
            report.outcomePairs.insert("\(world.outcome(of: .sender).map { "\($0)" } ?? "-") | \(world.outcome(of: .receiver).map { "\($0)" } ?? "-")")
            total = 1
        }
        memo[key, default: [:]][remaining] = total
        return total
    }

    /// Whether nothing can happen any more: both sessions ended, no frame in flight, every deadline passed.
    static func isQuiescent(_ world: SimulatedWorld) -> Bool {
        world.sender.state == .finished && world.receiver.state == .finished
            && world.inFlight.values.allSatisfy(\.isEmpty) && world.now > world.lastAcceptedTime
    }

    /// The steps tried in `world`.
    func candidates(_ world: SimulatedWorld) -> [WorldStep] {
        var steps: [WorldStep] = []
        for direction in [Direction.toSender, .toReceiver] {
            for index in (world.inFlight[direction] ?? []).indices {
                steps += [.deliver(direction, index), .drop(direction, index)]
            }
        }
        for device in Device.allCases {
            for choice in PersonChoice.allCases { steps.append(.person(device, choice)) }
        }
        steps.append(.provideCredential)
        for status in ReceiptStatus.allCases { steps.append(.importFinished(status)) }
        for deadline in [world.senderExpiry, world.lastAcceptedTime.addingTimeInterval(1)] where world.now < deadline {
            steps.append(.advanceClock(seconds: UInt32(deadline.timeIntervalSince(world.now).rounded(.up))))
        }
        for device in Device.allCases { steps += [.tick(device), .transportLost(device)] }
        return steps
    }
}
