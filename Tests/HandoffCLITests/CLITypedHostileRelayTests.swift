import AccountHandoff
import AccountHandoffTestSupport
import AccountHandoffTransport
import Foundation
import Testing
import TestProcesses

/// Spec 8.8 "Observers" and 11.10 "The relay" against the real `handoff` binaries: a relay
/// that pairs one honest device's typed connection with an attacker (``TypedHostileRelay``).
/// The attacker is the library's own session with a guessed code: the nameplate the relay
/// learnt from the token (public, 12.8) and a secret that is not the sender's. Whichever end
/// it reaches, it gets exactly one guess, which fails its CPace confirmation, and learns nothing.
@Suite(.startsProcesses, .timeLimit(.minutes(10)))
struct CLITypedHostileRelayTests {
    static let typedPrefix = "Or type this code on the receiving device when 'handoff receive' asks for a code: "
    static let retiredPrefix = "A device tried a code that does not match; this code no longer works. The new code is "

    /// The relay pairs the honest receiver with an attacking sender: the receiver ends with the
    /// code-mismatch sentence and imports nothing, the attacker's confirmation fails, and the
    /// honest sender loses nothing (Spec 8.8: a sender's code is retired only by a wrong
    /// `tagR` it checked itself), so another device that types the same code still gets the
    /// account. The receiver's own code is used up: typing it again sends nothing.
    @Test func aRelayThatPairsTheReceiverWithAnAttackerGivesItOneGuessAndNothingElse() async throws {
        let relay = try TypedHostileRelay(.pairsTheReceiverWithTheAttacker)
        defer { relay.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The relay learns the nameplate from the sender's token (1000 public tokens), and the
        // attacker waits at the relay as a sender of that nameplate with another secret.
        let (sender, code, relayOption) = try await Self.honestSender(at: relay, scratch: scratch)
        let attacker = try await AttackingSender.started(nameplate: UInt16(code.prefix(3))!, secret: Self.otherSecret(than: code),
                                                         relayPort: relay.accomplicePort)
        defer { attacker.stop() }

        let receiver = try HandoffProcess(scratch.receiveArguments(["--credentials", "files"] + relayOption))
        receiver.write(code + "\n")
        let received = await receiver.finish()
        #expect(relay.did("paired the receiver with the attacker"), "\(relay.log)")
        #expect(received.status == 70, "\(received.all)")
        #expect(received.stderr.contains("The code did not match the device this one reached, so nothing was sent. If the sending device now shows a new code, type that one; if it still shows the same code, another device answered in its place: use its QR code instead, or stop the transfer there and start it again for a new code."),
                "\(received.all)")
        #expect(!received.stdout.contains("offers this account"), "the attacker offered nothing: \(received.stdout)")
        #expect(await scratch.storeSnapshot().isEmpty, "nothing imported")

        // The attacker's one guess failed its confirmation: its own code was retired, it never paired.
        let attacked = await attacker.finish()
        #expect(attacked.updates.contains("typedCodeRetired(1)"), "\(attacked.updates)")
        #expect(!attacked.updates.contains("pairedByTypedCode"), "\(attacked.updates)")
        #expect(attacked.outcome == .ended(.cancelled(by: .local)), "it ended only when the test stopped it")

        // The honest sender saw no run: no guess counted, its code unchanged.
        #expect(!sender.stdoutSoFar.contains(Self.retiredPrefix), "\(sender.stdoutSoFar)")

        // The receiver's guess count: its code is used up on this device; typing it again ends
        // before any connection (the relay reads no new handshake).
        let handshakes = relay.publicHandshakeCount
        let again = try HandoffProcess(scratch.receiveArguments(["--credentials", "files"] + relayOption))
        again.write(code + "\n")
        let refused = await again.finish()
        #expect(refused.status == 70, "\(refused.all)")
        #expect(refused.stderr.contains("This device already used that code, and a code works only once on a device. If the sending device shows a new code, type that one; if it still shows this code, use its QR code instead, or stop the transfer there and start it again for a new code."),
                "\(refused.all)")
        #expect(relay.publicHandshakeCount == handshakes, "the used code made no connection")

        // Another device types the same code (the relay now pairs honestly): the sender's code
        // still works, and the account arrives as sent.
        let other = try HandoffProcess(scratch.receiveArguments(["--credentials", "files"] + relayOption, store: scratch.otherStore))
        other.write(code + "\n")
        try #require(await other.waitForOutput(containing: "offers this account") != nil, "\(other.stdoutSoFar)\(other.stderrSoFar)")
        other.write("yes\n")
        let completed = await other.finish()
        let sent = await sender.finish()
        #expect(completed.status == 0, "\(completed.all)")
        #expect(sent.status == 0, "\(sent.all)")
        #expect(relay.did("paired a sender and a receiver honestly"), "\(relay.log)")
        #expect(sent.stdout.contains("The receiving device typed the right code."))
        #expect(!sent.stdout.contains(Self.retiredPrefix), "no wrong guess ever reached the sender")
        #expect(await scratch.storeSnapshot(scratch.otherStore).count == 1)
    }

    /// The relay pairs the honest sender with an attacking receiver that typed a guess: the
    /// sender's confirmation check fails, the code is retired at once, the sender says a device
    /// tried a code and shows a new one; the attacker ends `typedCodeMismatch` with nothing. The
    /// new code then works through the relay.
    @Test func aRelayThatPairsTheSenderWithAnAttackerRetiresTheCodeAfterOneGuess() async throws {
        let relay = try TypedHostileRelay(.pairsTheSenderWithTheAttacker)
        defer { relay.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (sender, code, relayOption) = try await Self.honestSender(at: relay, scratch: scratch)

        let guess = try TypedCode(entry: Self.digits(nameplate: String(code.prefix(3)), secret: Self.otherSecret(than: code)))
        let relayName = try #require(TCPRendezvous.Relay(host: RelayHost("127.0.0.1"), port: relay.accomplicePort))
        let pairing = Date().addingTimeInterval(30)
        let importer = RecordingImporter()
        let attacker = HandoffReceiverSession(typedCode: guess, route: .relay, importer: importer,
                                              authenticator: ScriptedAuthenticator(always: .authenticated),
                                              registry: .inMemory()) { nameplate, _ in
            try await ConnectionFrameChannel.connectTyped(throughRelay: relayName, nameplate: nameplate, pairingDeadline: pairing)
        }
        #expect(await attacker.run() == .ended(.failed(.typedCodeMismatch)))
        #expect(relay.did("paired the sender with the attacker"), "\(relay.log)")
        let offered = await attacker.offeredAccount
        #expect(offered == nil, "the attacker learnt no account")
        #expect(importer.log.notes.isEmpty, "the attacker's importer was never asked: \(importer.log.notes)")

        let retired = try #require(await sender.waitForOutput(containing: Self.retiredPrefix), "the sender never retired its code")
        let line = try #require(retired.split(separator: "\n").first { $0.hasPrefix(Self.retiredPrefix) })
        let newCode = String(line.dropFirst(Self.retiredPrefix.count).prefix(13))
        #expect(newCode != code)
        #expect(sender.stdoutSoFar.components(separatedBy: Self.retiredPrefix).count == 2, "exactly one guess counted")

        // The old code is worth nothing now; the new one pairs through the (now honest) relay.
        let receiver = try HandoffProcess(scratch.receiveArguments(["--credentials", "files"] + relayOption))
        receiver.write(newCode + "\n")
        try #require(await receiver.waitForOutput(containing: "offers this account") != nil, "\(receiver.stdoutSoFar)\(receiver.stderrSoFar)")
        receiver.write("yes\n")
        let received = await receiver.finish()
        let sent = await sender.finish()
        #expect(received.status == 0, "\(received.all)")
        #expect(sent.status == 0, "\(sent.all)")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
        #expect(await scratch.storedAccount?.metadata.linkID.description == Scratch.linkID)
    }

    // MARK: Helpers

    /// The typed code `sender` shows, as its person reads it (`NNN SSSS SSSC`).
    /// The honest sender, waiting at `relay` (through the relay's public port, `relayOption`),
    /// and its typed code, once the relay has learnt the code's nameplate from the sender's token.
    static func honestSender(at relay: TypedHostileRelay, scratch: Scratch) async throws
        -> (sender: HandoffProcess, code: String, relayOption: [String]) {
        let relayOption = ["--relay", "127.0.0.1:\(relay.publicPort)"]
        let sender = try HandoffProcess(scratch.sendArguments(relayOption))
        let code = try await typedCode(of: sender)
        try #require(await Patience.waitUntil { relay.learntNameplates.contains { $0.value == UInt16(code.prefix(3))! } },
                     "the relay never saw the sender's typed token: \(relay.log)")
        return (sender, code, relayOption)
    }

    static func typedCode(of sender: HandoffProcess) async throws -> String {
        let shown = try #require(await sender.waitForOutput(containing: typedPrefix), "no typed code: \(sender.stdoutSoFar)\(sender.stderrSoFar)")
        let line = try #require(shown.split(separator: "\n").first { $0.hasPrefix(typedPrefix) })
        return String(line.dropFirst(typedPrefix.count).prefix(13))
    }

    /// A secret other than the one in `code` (a guess that is wrong).
    static func otherSecret(than code: String) -> UInt32 {
        let secret = UInt32(code.filter(\.isNumber).dropFirst(3).prefix(7))!
        return (secret + 1) % 10_000_000
    }

    /// The 11 digits of a code with this nameplate and secret, check digit included (Spec 12.2).
    static func digits(nameplate: String, secret: UInt32) -> String {
        let ten = nameplate + String(format: "%07d", secret)
        return ten + String(DammCheckDigit.interim(ten))
    }
}

/// An attacker that plays the sending device through the relay with a code of its choosing:
/// the library's own ``HandoffSenderSession`` on a ``FrameListener`` that waits at the relay,
/// drawing its typed code from ``GuessingRandom``.
final class AttackingSender: Sendable {
    struct Result: Sendable {
        /// The session's updates, by kind (`typedCodeRetired(N)`, `pairedByTypedCode`, ...).
        let updates: [String]
        let outcome: SenderOutcome
    }

    private let session: HandoffSenderSession
    private let running: Task<SenderOutcome, Never>
    private let watching: Task<[String], Never>

    private init(session: HandoffSenderSession, running: Task<SenderOutcome, Never>, watching: Task<[String], Never>) {
        self.session = session
        self.running = running
        self.watching = watching
    }

    /// Starts the session and waits until it shows the chosen code.
    static func started(nameplate: UInt16, secret: UInt32, relayPort: UInt16) async throws -> AttackingSender {
        let relay = try #require(TCPRendezvous.Relay(host: RelayHost("127.0.0.1"), port: relayPort))
        let listener = try FrameListener(relay: relay)
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Mallory", emailAddress: "mallory@example.org",
                                          username: "mallory", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let session = HandoffSenderSession(account: account, rendezvous: listener.rendezvous.token, channel: listener,
                                           credential: { _ in try SecretBytes(utf8: "not the victim's") },
                                           authenticator: ScriptedAuthenticator(always: .authenticated), registry: .inMemory(),
                                           options: SenderSessionOptions(typedRoutes: [.relay]),
                                           random: GuessingRandom(nameplate: nameplate, secret: secret))
        let shown = AsyncStream<String>.makeStream()
        let watching = Task {
            var kinds: [String] = []
            for await update in session.updates {
                if case .showCode(_, let typed, _) = update {
                    shown.continuation.yield(typed?.digits ?? "")
                    typed?.wipe()
                } else if case .typedCodeRetired(let newCode, let wrongGuesses) = update {
                    kinds.append("typedCodeRetired(\(wrongGuesses))")
                    newCode.wipe()
                } else if case .pairedByTypedCode = update {
                    kinds.append("pairedByTypedCode")
                }
            }
            return kinds
        }
        let running = Task { await session.run() }
        var firstShown: String?
        for await digits in shown.stream {
            firstShown = digits
            break
        }
        let expected = String(format: "%03d", nameplate) + String(format: "%07d", secret)
        #expect(firstShown?.hasPrefix(expected) == true, "the attacker shows the code it chose")
        return AttackingSender(session: session, running: running, watching: watching)
    }

    /// Stops the attacker (idempotent).
    func stop() {
        let session = self.session
        Task { await session.cancel() }
    }

    /// Stops the attacker and says what its session saw.
    func finish() async -> Result {
        await session.cancel()
        let outcome = await running.value
        return Result(updates: await watching.value, outcome: outcome)
    }
}

/// System randomness, except for the typed code (Spec 12.3): the first 2-byte draw is the
/// chosen nameplate and the next 4-byte draw the chosen secret.
final class GuessingRandom: RandomSource {
    private let system = SystemRandomSource()
    private var nameplate: [UInt8]?
    private var secret: [UInt8]?

    init(nameplate: UInt16, secret: UInt32) {
        self.nameplate = [UInt8(nameplate >> 8), UInt8(nameplate & 0xff)]
        self.secret = [UInt8(secret >> 24), UInt8(secret >> 16 & 0xff), UInt8(secret >> 8 & 0xff), UInt8(secret & 0xff)]
    }

    func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        if buffer.count == 2, let chosen = nameplate {
            nameplate = nil
            return buffer.copyBytes(from: chosen)
        }
        if buffer.count == 4, nameplate == nil, let chosen = secret {
            secret = nil
            return buffer.copyBytes(from: chosen)
        }
        system.fill(buffer)
    }
}
