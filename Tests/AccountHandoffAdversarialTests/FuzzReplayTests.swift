import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing

/// Runs the fuzz targets' seeds and every saved regression input (`Fuzz/regressions/<target>/`)
/// through the same code the fuzzers run, without sanitizers, as part of the normal suite.
@Suite struct FuzzReplayTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The saved inputs of `target`: every non-hidden file of its regression folder.
    static func regressionInputs(_ target: FuzzTarget) throws -> [URL] {
        let directory = repositoryRoot.appendingPathComponent("Fuzz/regressions/\(target.rawValue)")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Every built-in seed of every target runs without breaking a property.
    @Test(arguments: FuzzTarget.allCases)
    func seedsPass(target: FuzzTarget) throws {
        let seeds = FuzzSeeds.seeds(for: target)
        #expect(seeds.count >= 3)
        for seed in seeds { try target.run(seed) }
    }

    /// Every saved regression input still passes. The folder must exist and hold real inputs
    /// (a folder of `.keep` files alone fails), and at least one of them must reach deep into
    /// its target (a decoded QR or encrypted frame, a victim past the credential, a world whose
    /// receiver got the account), so the replay cannot silently test nothing.
    @Test(arguments: FuzzTarget.allCases)
    func savedRegressionsPassAndReachDeep(target: FuzzTarget) throws {
        let files = try Self.regressionInputs(target)
        #expect(!files.isEmpty, "Fuzz/regressions/\(target.rawValue) holds no inputs")
        var deep = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            #expect(!bytes.isEmpty, "\(file.lastPathComponent) is empty")
            if try target.reachesDeepState(bytes) { deep += 1 }
        }
        #expect(deep >= 1, "no saved input of \(target.rawValue) reaches deep into a session")
    }

    /// The first seed of each single-session target is a complete honest run: the victim
    /// ends with an imported receipt, so the fuzzers start from the deepest state.
    @Test(arguments: [Device.sender, .receiver])
    func victimSeedsReachTheEnd(victim: Device) throws {
        var input = FuzzInput(FuzzSeeds.seeds(for: victim == .sender ? .sender : .receiver)[0])
        let harness = try VictimHarness(victim: victim)
        try harness.run(&input)
        #expect(harness.victimOutcome == "completed.imported")
        #expect(harness.deepestPhase == 5)
    }

    /// The other victim seeds reach the states they are meant to: the sender past the
    /// credential with a second device answered; the receiver through a forged reveal with the
    /// real nonce and a forged credential to its import; a forged reveal with a damaged
    /// nonce refused as a commitment mismatch; a receiver told contested.
    @Test func otherVictimSeedsReachTheirStates() throws {
        func outcome(_ victim: Device, _ seed: [UInt8]) throws -> VictimHarness {
            var input = FuzzInput(seed)
            let harness = try VictimHarness(victim: victim)
            try harness.run(&input)
            return harness
        }
        let senderSeeds = FuzzSeeds.seeds(for: .sender)
        #expect(try outcome(.sender, senderSeeds[1]).deepestPhase >= 4)
        let receiverSeeds = FuzzSeeds.seeds(for: .receiver)
        let forged = try outcome(.receiver, receiverSeeds[1])
        #expect(forged.victimOutcome == "completed.imported", "\(forged.steps)")
        #expect(forged.deepestPhase == 5)
        #expect(try outcome(.receiver, receiverSeeds[2]).victimOutcome == "failed.commitmentMismatch")
        #expect(try outcome(.receiver, receiverSeeds[3]).victimOutcome == "contested")
    }

    /// Regressions (the first two crashes of the version-2 receiver fuzzer, harness bugs): a
    /// forged reveal with the real nonce is accepted (the forger holds the session keys) even
    /// when the sender has accepted no hello yet, or a second device's; the receiver then shows
    /// the code of its own session, the one an honest run shows, not the sender's current one.
    @Test(arguments: ["forged-reveal-before-the-sender-accepted-the-hello", "forged-reveal-after-a-second-device-won-the-sender"])
    func aForgedRevealShowsTheCodeOfTheReceiversOwnSession(file: String) throws {
        let url = Self.repositoryRoot.appendingPathComponent("Fuzz/regressions/FuzzReceiver/\(file)")
        var input = FuzzInput(Array(try Data(contentsOf: url)))
        let harness = try VictimHarness(victim: .receiver)
        try harness.run(&input)
        #expect(harness.steps.contains("forged.reveal(32)"))
        #expect(harness.steps.contains("-> showShortCode"))
    }

    /// Regression (third crash of the version-2 receiver fuzzer, a harness bug): a malicious
    /// sender's forged credential may be a password of zero bytes; the app's buffer then holds
    /// zeros without having been wiped, and the session leaves it alone until the app wipes it.
    @Test func aForgedPasswordOfZeroBytesIsDeliveredIntact() throws {
        let url = Self.repositoryRoot.appendingPathComponent("Fuzz/regressions/FuzzReceiver/forged-credential-of-zero-bytes")
        var input = FuzzInput(Array(try Data(contentsOf: url)))
        let harness = try VictimHarness(victim: .receiver)
        try harness.run(&input)
        #expect(harness.steps.contains("-> deliverAccount"))
        #expect(harness.deepestPhase == 5)
    }

    /// The session seeds reach the states they are meant to: the honest one completes, the
    /// shoulder-surfer that wins the race gets nothing even from a careless sending person
    /// (Spec 4.4: there is no code on the receiving screen to type), the tampered one is
    /// cancelled, and a second device after the credential is answered without ending the session.
    @Test func sessionSeedsReachTheirStates() throws {
        let seeds = FuzzSeeds.seeds(for: .session)
        var honest = FuzzInput(seeds[0])
        #expect(try SessionScript.run(&honest).outcome(of: .receiver) == "completed.imported")
        var careless = FuzzInput(seeds[2])
        let carelessWorld = try SessionScript.run(&careless)
        #expect(!carelessWorld.attackerLearnedAccount && !carelessWorld.attackerLearnedCredential)
        #expect(carelessWorld.outcome(of: .sender) == "contested")
        var tampered = FuzzInput(seeds[3])
        #expect(try SessionScript.run(&tampered).outcome(of: .receiver) == "cancelled.local")
        var late = FuzzInput(seeds[5])
        let lateWorld = try SessionScript.run(&late)
        #expect(lateWorld.senderWarnedOfSecondDevice)
        #expect(lateWorld.outcome(of: .sender) == "completed.imported")
        #expect(lateWorld.outcome(of: .attacker) == "contested")
    }
}
