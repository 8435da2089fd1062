import AccountHandoffTransitRelay
import Foundation
import Testing
import TestProcesses

/// `handoff send --relay HOST:PORT [--relay-only]`, `handoff receive` following the code
/// through Debian's transit relay, and `handoff-dev demo --relay` (Spec 11.7, 11.8).
@Suite(.startsProcesses, .enabled(if: TransitRelay.twistd != nil, "needs Debian's transit relay: apt-get install magic-wormhole-transit-relay"),
       .timeLimit(.minutes(10)))
struct CLIRelayTests {
    @Test func aRelayOnlyCodeGoesThroughTheRelay() async throws {
        let relay = try await TransitRelay.started()
        defer { relay.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try await RelayedCLITransfer.run(scratch, sender: ["--relay", "127.0.0.1:\(relay.port)", "--relay-only"])
        #expect(run.sent.status == 0, "\(run.sent.all)")
        #expect(run.received.status == 0, "\(run.received.all)")
        #expect(run.sent.stdout.contains("Waiting at the relay 127.0.0.1:\(relay.port) for the receiving device.\n"))
        #expect(run.sent.stdout.contains("The code will name only the relay 127.0.0.1:\(relay.port), which both devices must reach"))
        #expect(run.received.stdout.contains("from relay 127.0.0.1:\(relay.port) (the code expires in"))
        #expect(run.received.stdout.contains("Connecting through the relay 127.0.0.1:\(relay.port); waiting for it to pair this device with the sending device...\n"))
        #expect(run.received.stdout.contains("Connected to the sending device through the relay 127.0.0.1:\(relay.port).\n"))
        #expect(!run.received.stdout.contains("Connecting directly"))
        #expect(run.received.stdout.hasSuffix("Done: the account was imported.\n"))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
        #expect(await scratch.storedAccount?.metadata.linkID.description == Scratch.linkID)
    }

    /// A code with this machine's address and a relay: the receiver connects directly first,
    /// is admitted at once, and never needs the relay.
    @Test func aCodeWithBothConnectsDirectlyFirst() async throws {
        let relay = try await TransitRelay.started()
        defer { relay.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try await RelayedCLITransfer.run(scratch, sender: ["--relay", "127.0.0.1:\(relay.port)"])
        #expect(run.sent.status == 0, "\(run.sent.all)")
        #expect(run.received.status == 0, "\(run.received.all)")
        #expect(run.sent.stdout.contains("It also names the relay 127.0.0.1:\(relay.port), for a receiving device that cannot reach this address."))
        #expect(run.received.stdout.contains("Connecting directly to 127.0.0.1:"))
        #expect(run.received.stdout.contains("Connected to the sending device directly at 127.0.0.1:"))
        #expect(!run.received.stdout.contains("through the relay"))
        // The direct connection won at once: no word of a head start that never ran out.
        let lines = run.received.stdout.split(separator: "\n").map(String.init)
        let connecting = try #require(lines.firstIndex { $0.hasPrefix("Connecting directly to 127.0.0.1:") })
        let endpoint = lines[connecting].dropFirst("Connecting directly to ".count).dropLast(3)
        #expect(lines[connecting] == "Connecting directly to \(endpoint)...")
        #expect(lines[connecting + 1] == "Connected to the sending device directly at \(endpoint).")
        #expect(!run.received.stdout.contains("trying the relay too"))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    @Test func demoRunsThroughDebiansRelayAndStopsIt() async throws {
        let result = try await HandoffProcess.run(["demo", "--yes", "--relay", "--qr-style", "light"])
        #expect(result.status == 0, "\(result.all)")
        let announcement = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("A transit relay runs on 127.0.0.1:") })
        #expect(announcement.contains("transitrelay --port=tcp:"))
        #expect(result.stdout.contains("sender   │ Waiting at the relay 127.0.0.1:"))
        #expect(result.stdout.contains("receiver │ Connected to the sending device through the relay 127.0.0.1:"))
        #expect(result.stdout.contains("  Link ID preserved: yes\n"))
        // The relay's temporary directory is gone, and no twistd runs from it any more.
        let rundir = try #require(announcement.split(separator: " ").first { $0.hasPrefix("--rundir=") }).dropFirst("--rundir=".count)
        #expect(!FileManager.default.fileExists(atPath: String(rundir)))
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let leftovers = processes.compactMap(Int32.init).filter { ProcessInspection.commandLine(of: $0)?.contains(String(rundir)) == true }
        #expect(leftovers.isEmpty)
    }
}

/// `handoff-dev bench` through Debian's relay: bytes, flights and the scan-to-code time (never
/// asserted: times are reported, not checked).
@Suite(.startsProcesses, .enabled(if: TransitRelay.twistd != nil, "needs Debian's transit relay: apt-get install magic-wormhole-transit-relay"))
struct CLIRelayBenchTests {
    static let relayKeys: Set<String> = [
        "relay", "available", "sessions", "scan_to_code_ms", "transfer_ms", "bytes_sender_to_receiver", "bytes_receiver_to_sender",
        "frames_sender_to_receiver", "frames_receiver_to_sender", "relay_copied_bytes", "handshake_bytes", "flights",
        "flights_before_code",
    ]

    /// The relay copies exactly the bytes both devices wrote after pairing: the challenge and
    /// three frames one way (28 + 74 + 298 + 1,066), the response and three frames the other
    /// (20 + 90 + 43 + 43); six flights, three of them (challenge, response and hello, reveal)
    /// before the code shows.
    @Test(.slowSlice) func theRelaySectionCountsWhatTheRelayCopied() throws {
        let run = try BenchProcess.run(["bench", "--quick", "--json", "--iterations", "1", "--repetitions", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let relay = try #require(report["relay"] as? [String: Any])
        #expect(Set(relay.keys) == Self.relayKeys)
        #expect(relay["available"] as? Bool == true)
        #expect(relay["sessions"] as? Int == 2)
        #expect((relay["relay"] as? String)?.contains("transitrelay --port=tcp:") == true)
        #expect(relay["bytes_sender_to_receiver"] as? Int == 28 + 74 + 298 + 1_066)
        #expect(relay["bytes_receiver_to_sender"] as? Int == 20 + 90 + 43 + 43)
        #expect(relay["relay_copied_bytes"] as? Int == 1_466 + 196)
        #expect(relay["handshake_bytes"] as? Int == 2 * 104 + 2 * 3)
        #expect(relay["frames_sender_to_receiver"] as? Int == 3 && relay["frames_receiver_to_sender"] as? Int == 3)
        #expect(relay["flights"] as? Int == 6 && relay["flights_before_code"] as? Int == 3)
        for key in ["scan_to_code_ms", "transfer_ms"] {
            let spread = try #require(relay[key] as? [String: Double], "\(key)")
            #expect(Set(spread.keys) == ["median", "min", "max"])
        }
    }
}

/// `--relay` refusals, before anything is listened on or shown.
@Suite(.startsProcesses) struct CLIRelayOptionTests {
    @Test(arguments: [
        (["--relay-only"], "--relay-only needs --relay HOST:PORT."),
        (["--relay", "relay.example.org"], "The option --relay takes HOST:PORT"),
        (["--relay", "relay_example.org:4001"], "The option --relay takes HOST:PORT"),
        (["--relay", "relay.example.org:0"], "The option --relay takes HOST:PORT"),
        (["--relay", "relay.example.org:65536"], "The option --relay takes HOST:PORT"),
        (["--relay", String(repeating: "a", count: 43) + ":4001"], "The option --relay takes HOST:PORT"),
        // 40 characters beside 127.0.0.1 need 33 bytes: one more than a code carries.
        (["--relay", String(repeating: "a", count: 40) + ":4001"], "more than the 32 a code can carry; choose a shorter relay host name"),
    ])
    func refused(_ options: [String], _ sentence: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.sendArguments(options + ["--no-local-auth"]))
        #expect(result.status == 64, "\(result.all)")
        #expect(result.stderr.contains(sentence), "\(result.stderr)")
        #expect(!result.stdout.contains("Transfer code:"))
    }

    /// A 30-character relay host beside 127.0.0.1 (a 25-byte token) gives QR version 6 at
    /// level M, under the CLI's ceiling of 7 (QRDensityTests pins every level), and an
    /// upper-case host is taken in lower case.
    @Test func aThirtyCharacterRelayHostKeepsTheQRUnderVersionSeven() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let host = "Handoff-Relay-Test-001.invalid"
        #expect(host.count == 30)
        let sender = try HandoffProcess(["send", "--account", scratch.accountFile.path, "--password-file", scratch.passwordFile.path,
                                         "--relay", "\(host):4001", "--no-local-auth", "--qr-style", "light"])
        // The relay's line comes after the code's, among the instructions.
        let shown = await sender.waitForOutput(containing: "It also names the relay \(host.lowercased()):4001")
        sender.signal(SIGINT)
        _ = await sender.finish()
        let text = try #require(shown)
        #expect(text.contains("Scan this QR code with the receiving device (version 6, error correction M):"))
        #expect(text.contains("It also names the relay \(host.lowercased()):4001"))
    }
}

/// A `handoff send` and `handoff receive` whose people type the codes and accept: the
/// receiver shows its code, the sending person types it, the receiving person accepts.
enum RelayedCLITransfer {
    struct Run {
        let sent: HandoffProcess.Result
        let received: HandoffProcess.Result
    }

    static func run(_ scratch: Scratch, sender extra: [String]) async throws -> Run {
        let sender = try HandoffProcess(scratch.sendArguments(extra + ["--no-local-auth"]))
        guard let code = await sender.transferCode() else {
            let failed = await sender.finish(timeout: .seconds(1))
            throw Failure(message: "the sender printed no transfer code: \(failed.all)")
        }
        let receiver = try HandoffProcess(scratch.receiveArguments(["--credentials", "files", "--no-local-auth"]))
        receiver.write(code + "\n")
        let shown = try #require(await receiver.waitForOutput(containing: "Code for the sending device: "), "the receiver showed no code")
        let digits = try #require(shown.range(of: "Code for the sending device: ").map { String(shown[$0.upperBound...].prefix(7)) })
        try #require(await sender.waitForOutput(containing: "[code/no/cancel] ") != nil, "the sender never asked for the code")
        sender.write(digits + "\n")
        try #require(await receiver.waitForOutput(containing: "Import this account") != nil, "the receiver was never offered the account")
        try #require(await receiver.waitForOutput(containing: "[yes/no/cancel] ") != nil)
        receiver.write("yes\n")
        let received = await receiver.finish()
        let sent = await sender.finish()
        return Run(sent: sent, received: received)
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
