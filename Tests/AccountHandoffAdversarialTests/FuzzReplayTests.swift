import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing

/// Runs the fuzz targets' seeds and every saved crasher (`Fuzz/regressions/<target>/`)
/// through the same code the fuzzers run, without sanitizers, as part of the normal suite.
@Suite struct FuzzReplayTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every built-in seed of every target runs without breaking a property.
    @Test(arguments: FuzzTarget.allCases)
    func seedsPass(target: FuzzTarget) throws {
        let seeds = FuzzSeeds.seeds(for: target)
        #expect(seeds.count >= 3)
        for seed in seeds { try target.run(seed) }
    }

    /// Every saved regression input still passes (crashers found by fuzzing are kept there).
    @Test(arguments: FuzzTarget.allCases)
    func savedRegressionsPass(target: FuzzTarget) throws {
        let directory = Self.repositoryRoot.appendingPathComponent("Fuzz/regressions/\(target.rawValue)")
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where !file.lastPathComponent.hasPrefix(".") {
            try target.run(Array(try Data(contentsOf: file)))
        }
    }

    /// The first seed of each single-session target is a complete honest run: the victim
    /// ends with an imported receipt, so the fuzzers start from the deepest state.
    @Test(arguments: [Device.sender, .receiver])
    func victimSeedsReachTheEnd(victim: Device) throws {
        var input = FuzzInput(FuzzSeeds.seeds(for: victim == .sender ? .sender : .receiver)[0])
        let harness = try VictimHarness(victim: victim)
        try harness.run(&input)
        #expect(harness.victimOutcome == .completed(.imported))
    }

    /// The session seeds reach the states they are meant to: the honest one completes, the
    /// careless man-in-the-middle one gets the account, the tampered one is cancelled.
    @Test func sessionSeedsReachTheirStates() throws {
        let seeds = FuzzSeeds.seeds(for: .session)
        var honest = FuzzInput(seeds[0])
        #expect(try SessionScript.run(&honest).outcome(of: .receiver) == .completed(.imported))
        var careless = FuzzInput(seeds[2])
        let carelessWorld = try SessionScript.run(&careless)
        #expect(carelessWorld.attackerLearnedAccount)
        #expect(carelessWorld.outcome(of: .sender) == .contested)
        var tampered = FuzzInput(seeds[3])
        #expect(try SessionScript.run(&tampered).outcome(of: .receiver) == .cancelled(by: .local))
    }
}
