#if canImport(Glibc)
import Glibc
#endif
import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// Ctrl-C (SIGINT) and SIGTERM on a terminal, in every phase of a transfer, at either side,
/// with the gates run by PAM under pam_wrapper and by the system's PAM: both processes end
/// (no death by the signal), each with the true outcome, and the open question is left as it
/// is, never shown again around the line that says what the signal does. Before the password
/// left, that is a cancel on both devices (exit 68); after it left, the sender only stops
/// waiting (exit 71) while the receiver goes on with its import.
///
/// `swift test` plays each phase once, taking turns at the side, the signal and the PAM (seven
/// cases); the slow slice plays every other case. The cases run one at a time:
/// every pam_wrapper start waits for the one before it (``PAMWrapperWorld/withStartLock(_:)``),
/// and a crowd of them would hold up every other test that needs PAM.
///
/// With `HANDOFF_SIGNAL_TIMINGS=FILE`, each case appends how long each side took to end
/// after the signal (for the record; no test asserts a time).
@Suite(.startsProcesses, .serialized) struct CLISignalEveryPhaseTests {
    enum Phase: String, CaseIterable, Sendable {
        case waitingForTheReceiver, atTheCodeQuestion, atTheImportQuestion, atTheConflictQuestion
        case atTheReceiversLoginPassword, atTheSendersLoginPassword, whileImporting
    }

    enum PAM: String, CaseIterable, Sendable {
        case pamWrapper, systemPAM
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let phase: Phase
        let atSender: Bool
        let signal: Int32
        let pam: PAM

        var testDescription: String {
            "\(phase.rawValue) \(atSender ? "sender" : "receiver") \(signal == SIGINT ? "SIGINT" : "SIGTERM") \(pam.rawValue)"
        }

        /// Every case this machine can play: the system's PAM passes a gate without a password
        /// only for root (runuser, through pam_rootok), which the phases after the receiver's
        /// gate need.
        static var all: [Case] {
            var cases: [Case] = []
            for pam in PAM.allCases {
                for phase in Phase.allCases {
                    if pam == .systemPAM, getuid() != 0, [.atTheSendersLoginPassword, .whileImporting].contains(phase) { continue }
                    for atSender in phase == .waitingForTheReceiver ? [true] : [true, false] {
                        for signal in [SIGINT, SIGTERM] { cases.append(Case(phase: phase, atSender: atSender, signal: signal, pam: pam)) }
                    }
                }
            }
            return cases
        }

        /// One case per phase, taking turns at the side, the signal and the PAM: the seven
        /// together play every phase, both sides, both signals and both PAMs once at least.
        var isInTheQuickSlice: Bool {
            let index = Phase.allCases.firstIndex(of: phase) ?? 0
            let side = phase == .waitingForTheReceiver || index % 2 == 0
            let interrupt = index % 4 < 2
            let wrapper = index % 3 != 2 || getuid() != 0 && [.atTheSendersLoginPassword, .whileImporting].contains(phase)
            return atSender == side && (signal == SIGINT) == interrupt && (pam == .pamWrapper) == wrapper
        }
    }

    @Test(arguments: Case.all.filter(\.isInTheQuickSlice))
    func aSignalEndsBothSidesWithTheTrueOutcome(_ played: Case) async throws {
        try await Self.play(played)
    }

    @Test(.slowSlice, arguments: Case.all.filter { !$0.isInTheQuickSlice })
    func theOtherSignalUnderTheOtherPAMEndsBothSidesToo(_ played: Case) async throws {
        try await Self.play(played)
    }

    /// `cancel` typed at the sender after the password left says what it does then: it only
    /// stops waiting (71), and the receiver's import goes on.
    @Test func cancelTypedAfterThePasswordLeftOnlyStopsWaiting() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let scratch = try Scratch(account: Scratch.accountJSON.replacingOccurrences(of: "\"imap.example.org\"", with: "\"127.0.0.1\"")
            .replacingOccurrences(of: "993", with: String(silent.port)))
        defer { scratch.remove() }
        let pair = try await TerminalPair.start(scratch, gates: .off, validated: true)
        let (sender, _) = try await Self.reach(.whileImporting, atSender: true, in: pair)
        sender.type("cancel\n")
        let sent = await TerminalPair.ending(of: pair.sender, timeout: .seconds(10))
        #expect(sent.status == 71, "\(sent.screen)")
        #expect(sent.screen.contains("\ncancel\nYou typed cancel: the password has already been sent, so this only stops waiting for the receiving device to confirm the import.\n"))
        #expect(!sent.screen.contains("Cancelling"))
        #expect(pair.receiver.isRunning, "the receiver stopped its import: \(pair.receiver.screen)")
        pair.receiver.signal(SIGINT)
        #expect(await TerminalPair.ending(of: pair.receiver, timeout: .seconds(10)).status == 68)
    }

    private static func play(_ played: Case) async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let scratch = try Scratch(account: played.phase == .whileImporting
            ? Scratch.accountJSON.replacingOccurrences(of: "\"imap.example.org\"", with: "\"127.0.0.1\"")
                .replacingOccurrences(of: "993", with: String(silent.port))
            : Scratch.accountJSON)
        defer { scratch.remove() }
        if played.phase == .atTheConflictQuestion {
            let first = try await TransferPair.start(scratch)
            try await first.confirmByTypingCodes()
            try #require(await first.finish().received.status == 0)
        }
        let (senderGate, receiverGate) = try Self.gates(played)
        let pair = try await TerminalPair.start(scratch, sender: senderGate, receiver: receiverGate, validated: played.phase == .whileImporting)
        let (target, openQuestion) = try await Self.reach(played.phase, atSender: played.atSender, in: pair)
        let signalled = ContinuousClock.now
        target.signal(played.signal)

        if played.phase == .whileImporting, played.atSender {
            // The password has left: the sender only stops waiting; the receiver's import goes on.
            let sent = await TerminalPair.ending(of: pair.sender, timeout: .seconds(10))
            Self.record(played, signalled: signalled, sent: sent, received: nil)
            #expect(sent.status == 71 && !sent.killedBySignal, "\(sent.screen)")
            #expect(sent.screen.contains("\nInterrupted: the password has already been sent, so this only stops waiting for the receiving device to confirm the import.\n"))
            #expect(sent.screen.hasSuffix("\nThe password was sent to the receiving device, but you stopped waiting for its confirmation, so this device cannot tell whether it was imported. Check on the receiving device; if it was not the device you meant, change the account's password.\n"))
            #expect(pair.receiver.isRunning, "the receiver stopped its import: \(pair.receiver.screen)")
            pair.receiver.signal(SIGINT)
            let received = await TerminalPair.ending(of: pair.receiver, timeout: .seconds(10))
            #expect(received.status == 68, "\(received.screen)")
            #expect(received.screen.hasSuffix("\nCancelling the import (interrupted).\nChecking the account with the mail server was cancelled. The account was not imported and your existing accounts are unchanged.\n"))
            #expect(await scratch.storeSnapshot() == [:])
            return
        }

        let (sent, received) = await pair.finish(timeout: .seconds(10))
        Self.record(played, signalled: signalled, sent: sent, received: played.phase == .waitingForTheReceiver ? nil : received)
        let mine = played.atSender ? sent : received
        #expect(mine.status == 68 && !mine.killedBySignal, "\(mine.screen)")
        let line = played.phase == .whileImporting ? "Cancelling the import (interrupted)." : "Cancelling the transfer (interrupted)."
        #expect(mine.screen.components(separatedBy: line).count == 2, "said once: \(mine.screen)")
        if let openQuestion {
            // Left as it was, once: never shown again, with an old time left, around the cancel.
            #expect(mine.screen.components(separatedBy: openQuestion).count == 2, "the question was shown again: \(mine.screen)")
            #expect(mine.screen.contains(openQuestion + "\n" + line + "\n"), "\(mine.screen)")
            #expect(target.echoes, "echo stayed off")
        }
        if played.phase == .waitingForTheReceiver {
            #expect(sent.screen.hasSuffix("\nYou cancelled the transfer. The password was not sent.\n"), "\(sent.screen)")
            return
        }
        let other = played.atSender ? received : sent
        #expect(other.status == 68 && !other.killedBySignal, "\(other.screen)")
        switch (played.phase, played.atSender) {
        case (.whileImporting, _):
            #expect(received.screen.hasSuffix("\nChecking the account with the mail server was cancelled. The account was not imported and your existing accounts are unchanged.\n"), "\(received.screen)")
            #expect(sent.screen.hasSuffix("\nThe person at the receiving device cancelled the import, so the account was not kept there; start a new transfer if you want to try again.\n"), "\(sent.screen)")
        case (_, true):
            #expect(sent.screen.hasSuffix("\nYou cancelled the transfer. The password was not sent.\n"), "\(sent.screen)")
            #expect(received.screen.hasSuffix("\nThe sending device cancelled the transfer. Nothing was imported.\n"), "\(received.screen)")
        case (_, false):
            #expect(received.screen.hasSuffix("\nYou cancelled the transfer. Nothing was imported.\n"), "\(received.screen)")
            #expect(sent.screen.hasSuffix("\nThe receiving device cancelled the transfer. The password was not sent.\n"), "\(sent.screen)")
        }
        let snapshot = await scratch.storeSnapshot()
        #expect(played.phase == .atTheConflictQuestion ? snapshot.count == 1 : snapshot == [:])
    }

    /// The gates for a case: under pam_wrapper both pass with ``CLIGate/password``; with the
    /// system's PAM, a side that must get past its gate uses runuser (pam_rootok lets root
    /// through), and a side whose question is played uses the default service, which asks.
    private static func gates(_ played: Case) throws -> (sender: TerminalPair.Gate, receiver: TerminalPair.Gate) {
        switch played.pam {
        case .pamWrapper:
            let gate = try CLIGate()
            return (.pamWrapper(gate), .pamWrapper(gate))
        case .systemPAM:
            switch played.phase {
            case .atTheSendersLoginPassword: return (.systemPAM(nil), .systemPAM("runuser"))
            case .whileImporting: return (.systemPAM("runuser"), .systemPAM("runuser"))
            default: return (.systemPAM(nil), .systemPAM(nil))
            }
        }
    }

    /// Plays both people up to `phase`; the process to signal, and the question open there
    /// then (its whole line so far), if any.
    private static func reach(_ phase: Phase, atSender: Bool, in pair: TerminalPair) async throws -> (TerminalProcess, String?) {
        let target = atSender ? pair.sender : pair.receiver
        func opened(_ marker: String, on side: TerminalProcess) async throws -> String? {
            try #require(await side.waitForScreen(containing: marker), "never asked: \(side.screen)")
            guard side === target else { return nil }
            let screen = side.screen
            let end = try #require(screen.range(of: marker, options: .backwards))
            let start = screen[..<end.lowerBound].lastIndex(of: "\n").map { screen.index(after: $0) } ?? screen.startIndex
            return String(screen[start..<end.upperBound])
        }
        if phase == .waitingForTheReceiver { return (target, nil) }
        let shown = try await pair.receiversCode()
        let codeQuestion = try await opened(Asked.codeQuestion, on: pair.sender)
        if phase == .atTheCodeQuestion { return (target, codeQuestion) }
        pair.sender.type(shown + "\n")
        if phase == .atTheConflictQuestion { return (target, try await opened("[replace/cancel] ", on: pair.receiver)) }
        let importQuestion = try await opened(Asked.importQuestion, on: pair.receiver)
        if phase == .atTheImportQuestion { return (target, importQuestion) }
        pair.receiver.type("yes\n")
        // Past the receiver's question, a gate of the system's PAM is runuser: it asks nothing.
        if phase == .atTheReceiversLoginPassword { return (target, try await opened(Asked.loginPassword, on: pair.receiver)) }
        if case .pamWrapper = pair.receiverGate { try await pair.answerGate(of: pair.receiver) }
        if phase == .atTheSendersLoginPassword { return (target, try await opened(Asked.loginPassword, on: pair.sender)) }
        if case .pamWrapper = pair.senderGate { try await pair.answerGate(of: pair.sender) }
        try #require(await pair.receiver.waitForScreen(containing: "Checking the account with its mail server 127.0.0.1:"), "\(pair.receiver.screen)")
        return (target, nil)
    }

    /// Appends the case's timings to `HANDOFF_SIGNAL_TIMINGS`, if set.
    private static func record(_ played: Case, signalled: ContinuousClock.Instant, sent: TerminalPair.Ending, received: TerminalPair.Ending?) {
        guard let path = ProcessInfo.processInfo.environment["HANDOFF_SIGNAL_TIMINGS"] else { return }
        func milliseconds(_ ending: TerminalPair.Ending?) -> String {
            guard let ending, let end = ending.endedAt else { return "-" }
            let elapsed = end - signalled
            return String(Int((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 1000))
        }
        let line = "\(played.testDescription)\tsender \(milliseconds(sent)) ms exit \(sent.status)\treceiver \(milliseconds(received)) ms exit \(received.map { String($0.status) } ?? "-")\n"
        // One write to a file opened for appending: lines of cases that end together never mix.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        _ = line.utf8CString.dropLast().withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}
