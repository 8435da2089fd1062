import AccountHandoff
import AccountHandoffSimulation
import Foundation
import Testing

/// The leak scan: every path runs with a marker password, and the marker (and any key
/// material, in raw, hex or decimal form) must never appear in an error description, an
/// action's description or `dump`, a session's `dump`, the QR text or any frame's bytes.
/// CLI output is scanned by the CLI's end-to-end tests.
@Suite struct LeakScanTests {
    /// Where a path ends after its honest prefix.
    static let endings: [WorldStep] = [
        .person(.sender, .confirm), .person(.sender, .reject), .person(.sender, .cancel),
        .person(.receiver, .confirm), .person(.receiver, .reject), .person(.receiver, .cancel),
        .provideCredential, .importFinished(.imported), .importFinished(.validationFailed), .importFinished(.declined),
        .advanceClock(seconds: 100_000), .transportLost(.sender), .transportLost(.receiver), .rescan,
        .deliver(.toSender, 0), .deliverCopy(.toReceiver, 0), .attackerScans,
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
                    if ending == .attackerScans { try world.apply(.deliver(.toSender, world.inFlight[.toSender]!.count - 1)) }
                    try world.finish()
                    paths += 1
                    scanned += world.leaks.scannedCount
                }
            }
        }
        #expect(paths == 2 * (SessionScript.honestSteps.count + 1) * Self.endings.count)
        #expect(scanned > 10_000)
    }

    /// A session's kept secret is learned and then found in a frame; a wiped one is skipped
    /// without a trap (reading it would trap).
    @Test func aKeptSecretIsLearnedAndAWipedOneSkipped() throws {
        let scanner = LeakScanner(password: "marker-password")
        let arena = try SessionArena(byteCount: 64)
        let secret = Array(UInt8(1)...32).withUnsafeBytes { arena.keep(copying: $0) }
        scanner.learn([secret])
        #expect(scanner.keyMaterialCount == 1)
        let frame: [UInt8] = [0x41, 0x48] + Array(1...16) + [0]
        #expect(throws: InvariantViolation.self) { try scanner.check(bytes: frame, "a frame") }
        try scanner.check(bytes: [0x41, 0x48] + Array(1...15) + [0], "a frame with 15 of the 16 bytes")
        let wiped = [UInt8](repeating: 7, count: 32).withUnsafeBytes { arena.keep(copying: $0) }
        wiped.wipe()
        scanner.learn([wiped])
        #expect(scanner.keyMaterialCount == 1)
    }

    /// The race of a photographed QR (Spec 8.2, 4.4): the shoulder-surfer's hello reaches the
    /// sender first and the honest receiver's is lost. However careless, the sending person can
    /// only type what the receiving screen shows, and it shows no code: every confirmation
    /// attempt does nothing, and the shoulder-surfer gets neither the account nor the password.
    /// Its session's outputs and dump are scanned too.
    @Test func aShoulderSurferThatWinsTheRaceGetsNothingFromACarelessPerson() throws {
        let options = SimulatedWorld.Options(carelessPeople: true, dumpEveryAction: true)
        let world = try SimulatedWorld(options: options)
        for step: WorldStep in [.attackerScans, .deliver(.toSender, 1), .drop(.toSender, 0), .attackerObserves(0),
                                .person(.sender, .confirm), .person(.sender, .confirm), .person(.receiver, .confirm),
                                .attackerAccepts, .deliver(.toSender, 0), .person(.sender, .confirm), .provideCredential] {
            try world.apply(step)
        }
        #expect(world.sender.phase == .awaitingCodeConfirmation)
        try world.finish()
        #expect(!world.attackerLearnedAccount && !world.attackerLearnedCredential)
        #expect(world.outcome(of: .sender) == "expired")
        #expect(world.outcome(of: .receiver) == "expired")
        #expect(!world.receiverImportCommitted)
    }

    /// The QR text and every frame of a complete session carry neither the marker nor any
    /// account field in readable form, nor the commitment (it travels only in the QR).
    @Test func qrTextAndFramesCarryNoPlaintext() throws {
        let recording = SessionRecording.standard
        let account = Scenario.standard.account
        let needles = [Scenario.markerPassword, account.emailAddress, account.username, account.imapHost, account.displayName]
        for needle in needles {
            #expect(!recording.qrText.contains(needle))
            for frame in recording.frames { #expect(!frame.bytes.containsSubsequence(Array(needle.utf8)), "\(frame.type)") }
        }
        let commitment = try SessionPayload(text: recording.qrText).commitment
        #expect(!recording.frames.contains { $0.bytes.containsSubsequence(account.linkID.bytes) })
        #expect(!recording.frames.contains { $0.bytes.containsSubsequence(Array(commitment.prefix(16))) })
    }

    /// The scanner itself finds what it looks for (so a clean scan means something): the
    /// marker in text or bytes, and learned key material as hex, raw bytes, an array
    /// description or a `dump`.
    @Test func theScannerDetectsPlantedLeaks() throws {
        let scanner = LeakScanner(password: Scenario.markerPassword)
        let keyBytes = Array(UInt8(100)..<UInt8(132))
        let arena = try SessionArena(byteCount: 32)
        let key = keyBytes.withUnsafeBytes { arena.keep(copying: $0) }
        scanner.learn([key])
        scanner.learn([key])  // learning the same secret again adds nothing
        #expect(scanner.keyMaterialCount == 1)
        #expect(throws: InvariantViolation.self) { try scanner.check(text: "x \(Scenario.markerPassword) y", "text") }
        #expect(throws: InvariantViolation.self) { try scanner.check(bytes: [1, 2] + Array(Scenario.markerPassword.utf8), "bytes") }
        #expect(throws: InvariantViolation.self) { try scanner.check(text: Hex.encode(keyBytes).uppercased(), "hex") }
        #expect(throws: InvariantViolation.self) { try scanner.check(bytes: [0] + keyBytes, "raw") }
        #expect(throws: InvariantViolation.self) { try scanner.check(renderingsOf: keyBytes, "array") }
        try scanner.check(renderingsOf: key, "SessionSecret")  // where it lies, not what it holds: passes
        try scanner.check(renderingsOf: try SecretBytes(copying: keyBytes), "SecretBytes")  // redacted: passes
        try scanner.check(text: "SessionPayload(v2, sendAccount)", "clean")
        key.wipe()
        scanner.learn([key])  // a wiped secret is not read (reading it would trap)
        #expect(scanner.keyMaterialCount == 1)
    }

    /// `dump` of a payload, or of a session holding one, leaves the commitment (the QR secret)
    /// out, as `description` does.
    @Test func theQRCommitmentStaysOutOfDumpsAndMirrors() throws {
        let world = try SimulatedWorld()
        let payload = world.sender.payload
        #expect(!Mirror(reflecting: payload).children.contains { $0.label == "commitment" })
        for value in [payload as Any, world.sender, world.receiver] {
            var dumped = ""
            dump(value, to: &dumped)
            let numbers = dumped.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            let commitment = payload.commitment.map(Int.init)
            #expect(!(0...max(0, numbers.count - commitment.count)).contains { numbers.count >= commitment.count
                && Array(numbers[$0..<$0 + commitment.count]) == commitment })
            #expect(!dumped.lowercased().contains(Hex.encode(Array(payload.commitment.prefix(12)))))
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
