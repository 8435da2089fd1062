import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing

/// The leak scan: every path runs with a marker password, and the marker (and any key
/// material, in raw, hex or decimal form) must never appear in an error description, an
/// action's description or `dump`, a session's `dump`, the QR text or any frame's bytes.
/// CLI output is scanned by the CLI's end-to-end tests (separate branch).
@Suite struct LeakScanTests {
    /// Where a path ends after its honest prefix.
    static let endings: [WorldStep] = [
        .person(.sender, .confirm), .person(.sender, .reject), .person(.sender, .cancel),
        .person(.receiver, .confirm), .person(.receiver, .reject), .person(.receiver, .cancel),
        .provideCredential, .importFinished(.imported), .importFinished(.validationFailed), .importFinished(.declined),
        .advanceClock(seconds: 100_000), .transportLost(.sender), .transportLost(.receiver), .rescan,
        .deliver(.toSender, 0), .deliverCopy(.toReceiver, 0),
    ]

    /// Every prefix of the honest session followed by every ending, with the sessions and
    /// every action dumped and scanned, on careful and careless people, with registries.
    @Test func everyPathLeaksNothing() throws {
        var paths = 0
        var scanned = 0
        for careless in [false, true] {
            for prefixLength in 0...SessionScript.honestSteps.count {
                for ending in Self.endings {
                    let options = SimulatedWorld.Options(carelessPeople: careless, useRegistries: true, dumpEveryAction: true)
                    let world = try SimulatedWorld(options: options)
                    for step in SessionScript.honestSteps.prefix(prefixLength) { try world.apply(step) }
                    try world.apply(ending)
                    try world.finish()
                    paths += 1
                    scanned += world.leaks.scannedCount
                }
            }
        }
        #expect(paths == 2 * 10 * Self.endings.count)
        #expect(scanned > 10_000)
    }

    /// The shoulder-surfer paths (a careless sending person lets it get the account and the
    /// credential): its session's outputs and dump are scanned too.
    @Test func shoulderSurferPathsLeakNothingInOutputs() throws {
        let options = SimulatedWorld.Options(carelessPeople: true, dumpEveryAction: true)
        let world = try SimulatedWorld(options: options)
        for step: WorldStep in [.attackerScans, .deliver(.toSender, 1), .person(.sender, .confirm), .attackerObserves(0),
                                .attackerAccepts, .deliver(.toSender, 1), .provideCredential, .attackerObserves(1),
                                .attackerSendsReceipt, .deliver(.toSender, 1)] {
            try world.apply(step)
        }
        try world.finish()
        #expect(world.attackerLearnedCredential)  // the residual risk of a careless person, visible in the test
        #expect(world.outcome(of: .sender) == .completed(.imported))
        #expect(world.outcome(of: .receiver) == .expired)
        #expect(!world.receiverImportCommitted)
    }

    /// The QR text and every frame of a complete session carry neither the marker nor any
    /// account field in readable form.
    @Test func qrTextAndFramesCarryNoPlaintext() throws {
        let recording = SessionRecording.standard
        let account = Scenario.standard.account
        let needles = [Scenario.markerPassword, account.emailAddress, account.username, account.imapHost, account.displayName]
        for needle in needles {
            #expect(!recording.qrText.contains(needle))
            for frame in recording.frames { #expect(!frame.bytes.containsSubsequence(Array(needle.utf8)), "\(frame.type)") }
        }
        #expect(!recording.frames.contains { $0.bytes.containsSubsequence(account.linkID.bytes) })
    }

    /// The scanner itself finds what it looks for (so a clean scan means something): the
    /// marker in text or bytes, and learned key material as hex, raw bytes, an array
    /// description or a `dump`.
    @Test func theScannerDetectsPlantedLeaks() throws {
        let scanner = LeakScanner(password: Scenario.markerPassword)
        let key = SecretBytes(copying: Array(UInt8(100)..<UInt8(132)))
        scanner.learn([key])
        let keyBytes = Array(UInt8(100)..<UInt8(132))
        #expect(throws: InvariantViolation.self) { try scanner.check(text: "x \(Scenario.markerPassword) y", "text") }
        #expect(throws: InvariantViolation.self) { try scanner.check(bytes: [1, 2] + Array(Scenario.markerPassword.utf8), "bytes") }
        #expect(throws: InvariantViolation.self) { try scanner.check(text: Hex.encode(keyBytes).uppercased(), "hex") }
        #expect(throws: InvariantViolation.self) { try scanner.check(bytes: [0] + keyBytes, "raw") }
        #expect(throws: InvariantViolation.self) { try scanner.check(renderingsOf: keyBytes, "array") }
        try scanner.check(renderingsOf: key, "SecretBytes")  // redacted: passes
        try scanner.check(text: "SessionPayload(v1, sendAccount)", "clean")
    }

    /// Regression (found by this scan): `dump` of a payload, or of a session holding one,
    /// printed the QR challenge although `description` leaves it out.
    @Test func theQRChallengeStaysOutOfDumpsAndMirrors() throws {
        let world = try SimulatedWorld()
        let payload = world.sender.payload
        #expect(!Mirror(reflecting: payload).children.contains { $0.label == "challenge" })
        for value in [payload as Any, world.sender, world.receiver] {
            var dumped = ""
            dump(value, to: &dumped)
            let numbers = dumped.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            let challenge = payload.challenge.map(Int.init)
            #expect(!(0...max(0, numbers.count - challenge.count)).contains { numbers.count >= challenge.count
                && Array(numbers[$0..<$0 + challenge.count]) == challenge })
            #expect(dumped.contains(payload.transferID.description))  // the public fields are still there
        }
    }

    /// The library has no logging path at all: no print, dump, NSLog, os_log, Logger or
    /// standard-error writes anywhere in Sources/AccountHandoff.
    @Test func theLibraryNeverLogs() throws {
        let sources = FuzzReplayTests.repositoryRoot.appendingPathComponent("Sources/AccountHandoff")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var checked = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for call in ["print(", "debugPrint(", "dump(", "NSLog(", "os_log(", "Logger(", "standardError", "FileHandle"] {
                #expect(!text.contains(call), "\(file.lastPathComponent) uses \(call)")
            }
            checked += 1
        }
        #expect(checked >= 30)
    }
}
