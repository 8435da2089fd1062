#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestProcesses

/// The local-authentication gate as a person meets it on a terminal (Spec 8.7): it names the
/// real user and which password it wants, counts the tries left, says before it asks and after
/// the last try what to do when no password can pass, and a service that asked nothing gets
/// the warning `--no-local-auth` gets.
@Suite(.startsProcesses) struct CLIGateOnATerminalTests {
    static let sendAnyway = "To send anyway, set a login password with 'passwd', name a PAM service that can check you with --auth-service SERVICE, or start both sides again with --no-local-auth (then nobody is asked to prove who they are)."
    static let receiveAnyway = "To receive anyway, set a login password with 'passwd', name a PAM service that can check you with --auth-service SERVICE, or start both sides again with --no-local-auth (then nobody is asked to prove who they are)."

    /// Root with `*` in /etc/shadow (most containers and cloud images) under the system's PAM:
    /// told at the start, again right before the question, and after the last wrong try; both
    /// devices end as not authenticated (72).
    @Test(.enabled(if: getuid() == 0 && RootShadow.hasNoPassword, "needs root, whose /etc/shadow entry is '*'"))
    func rootWithoutAPasswordIsToldWhatToDoBeforeAndAfter() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TerminalPair.start(scratch, sender: .off, receiver: .systemPAM(nil))
        let cannotPass = "root has no login password on this computer (its entry in the shadow password file, /etc/shadow, is \"*\"), so no password can pass the login-password check (PAM service handoff)."
        #expect(pair.receiver.screen.hasPrefix("Warning: " + cannotPass + " " + Self.receiveAnyway + "\n" + Shown.codePrompt), "told before the code is pasted: \(pair.receiver.screen)")
        try await pair.senderTypesTheReceiversCode()
        try await pair.receiverAccepts()
        for attempt in 1...3 { try await pair.answerGate(of: pair.receiver, with: "wrong-\(attempt)", count: attempt) }
        let (sent, received) = await pair.finish(timeout: .seconds(30))
        #expect(received.status == 72 && sent.status == 72, "\(received.screen)")
        #expect(received.screen.contains("""
            To receive the password and store it on this device, confirm that it is you.
            As the warning at the start said, no login password of root can pass this check; press Ctrl-C to stop, then start again as it says.
            Login password of root on this computer (not shown; it is checked here and never sent) [login password] \n
            """))
        #expect(received.screen.contains("That password was not right. Try again (2 tries left).\n"))
        #expect(received.screen.contains("That password was not right. Try again (1 try left).\n"))
        #expect(received.screen.hasSuffix("""
            \n\(cannotPass) \(Self.receiveAnyway)
            You could not be authenticated on this device, so the transfer was stopped; ask the sending device for a new code when you can authenticate. Nothing was imported.\n
            """), "\(received.screen)")
        #expect(sent.screen.hasSuffix("\nThe person at the receiving device could not be authenticated there, so the transfer was stopped; start a new transfer if you want to try again. The password was not sent.\n"))
        #expect(await scratch.storeSnapshot() == [:])
    }

    /// A system account (Debian's `daemon`, user ID 1, `*` in /etc/shadow) cannot read
    /// /etc/shadow, so nothing is known to say before the question; after the last wrong try
    /// the person hears what to do all the same. (`nobody` may learn it before: systemd's NSS
    /// module gives every user nobody's locked entry.)
    @Test(.enabled(if: getuid() == 0, "runs the receiver as daemon, which needs root"))
    func aSystemAccountIsToldWhatToDoAfterTheLastTry() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.store, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try #require(chown(scratch.store.path, 1, 1) == 0)
        let pair = try await TerminalPair.start(scratch, sender: .off, receiver: .systemPAM(nil), receiver: ["--credentials", "files"],
                                                receiverUserID: 1)
        try await pair.senderTypesTheReceiversCode()
        try await pair.receiverAccepts()
        for attempt in 1...3 { try await pair.answerGate(of: pair.receiver, with: "wrong-\(attempt)", count: attempt) }
        let (sent, received) = await pair.finish(timeout: .seconds(30))
        #expect(received.status == 72 && sent.status == 72, "\(received.screen)")
        #expect(received.screen.hasPrefix(Shown.codePrompt), "nothing was known to say first: \(received.screen)")
        #expect(received.screen.contains("Login password of daemon on this computer (not shown; it is checked here and never sent) [login password] "))
        #expect(received.screen.hasSuffix("""
            \nIf the account daemon has no login password (root on many servers and containers has none, nor do system accounts such as nobody), no answer can pass this check. \(Self.receiveAnyway)
            You could not be authenticated on this device, so the transfer was stopped; ask the sending device for a new code when you can authenticate. Nothing was imported.\n
            """), "\(received.screen)")
    }

    /// su (and runuser) let root through without a question (pam_rootok): the transfer goes on,
    /// with the warning `--no-local-auth` gives, on both devices.
    @Test(.enabled(if: getuid() == 0, "su lets only root through without a question"))
    func aServiceThatAsksNothingIsWarnedAbout() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TerminalPair.start(scratch, gates: .systemPAM("su"))
        try await pair.senderTypesTheReceiversCode()
        try await pair.receiverAccepts()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.screen)\(received.screen)")
        #expect(sent.screen.contains("\nWarning: the PAM service su let root through without asking anything (su and runuser do that for root, through pam_rootok), so nobody proved who they are before the password leaves this computer; anyone at this terminal could do it.\n"))
        #expect(received.screen.contains("\nWarning: the PAM service su let root through without asking anything (su and runuser do that for root, through pam_rootok), so nobody proved who they are before the password is accepted and stored; anyone at this terminal could do it.\n"))
        #expect(!sent.screen.contains(Asked.loginPassword) && !received.screen.contains(Asked.loginPassword))
    }

    /// The gate names the user PAM checks (the real one, not `$USER`), says which password
    /// each question wants (the mail password to send, then the login password), and counts
    /// the tries left; a terminal gets no warning about piped answers.
    @Test func theQuestionsSayWhichPasswordForWhomAndHowManyTriesAreLeft() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let gate = try CLIGate()
        let pair = try await TerminalPair.start(scratch, sender: .pamWrapper(gate), receiver: .pamWrapper(gate), typedPassword: true,
                                                environment: ["USER": "mallory", "LOGNAME": "mallory"])
        try await pair.senderTypesTheReceiversCode()
        try await pair.receiverAccepts()
        try await pair.answerGate(of: pair.receiver, with: "not-it-1")
        try await pair.answerGate(of: pair.receiver, with: "not-it-2", count: 2)
        try await pair.answerGate(of: pair.receiver, count: 3)
        try await pair.answerGate(of: pair.sender)
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.screen)\(received.screen)")
        let user = getuid() == 0 ? "root" : try #require(getpwuid(getuid())).pointee.pw_name.map { String(cString: $0) } ?? ""
        let question = "Login password of \(user) on this computer (not shown; it is checked here and never sent) [login password] "
        #expect(sent.screen.hasPrefix("Sending this account:\n  │ Display name     Ada Lovelace\n"), "the account comes before its password is asked for")
        #expect(sent.screen.contains("  │ Account link ID  \(Scratch.linkID)\n" + Shown.mailPasswordPrompt + "\nPassword: read from standard input (not shown).\n"))
        #expect(sent.screen.contains("To send the password of ada@example.org, confirm that it is you.\n" + question + "\n"))
        #expect(received.screen.contains("To receive the password and store it on this device, confirm that it is you.\n" + question + "\n"))
        #expect(received.screen.contains(question + "\nThat password was not right. Try again (2 tries left).\n" + question
                                         + "\nThat password was not right. Try again (1 try left).\n" + question + "\n"))
        #expect(!sent.screen.contains("mallory") && !received.screen.contains("mallory"))
        #expect(!sent.screen.contains("not a terminal") && !received.screen.contains("not a terminal"))
    }
}

/// Root's entry in /etc/shadow, read as pam_unix reads it (the tests run as root to read it).
enum RootShadow {
    /// Whether root's password field is `*` (no password set).
    static var hasNoPassword: Bool {
        guard let shadow = try? String(contentsOfFile: "/etc/shadow", encoding: .utf8),
              let root = shadow.split(separator: "\n").first(where: { $0.hasPrefix("root:") }) else { return false }
        return root.split(separator: ":", omittingEmptySubsequences: false).dropFirst().first?.hasPrefix("*") ?? false
    }
}
