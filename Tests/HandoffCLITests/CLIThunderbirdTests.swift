import AccountHandoff
import AccountHandoffDovecot
import Foundation
import Testing
import ThunderbirdHarness
import TestProcesses

/// The proof is a real client: Debian's Thunderbird, headless, with throwaway profiles, logs in
/// to a throwaway Dovecot over TLS (trusting its throwaway CA through the profile's cert9.db)
/// with an account that a real `handoff send` gave a real `handoff receive --into-thunderbird`;
/// and an account that Thunderbird itself set up (its account manager, its login manager and
/// NSS) travels with `handoff send --from-thunderbird` into a second profile, where Thunderbird
/// logs in with it again. Each takes 20 to 40 s (Thunderbird starts and stops up to three
/// times), so they run in the slow slice.
@Suite(.startsProcesses, .serialized) struct CLIThunderbirdTests {
    @Test(.slowSlice)
    func thunderbirdLogsInWithAnAccountReceivedIntoIt() async throws {
        let clock = ContinuousClock.now
        let lab = try ThunderbirdLab()
        defer { lab.remove() }
        let profile = try lab.profile("received")
        let account = lab.directory.appendingPathComponent("ada.json")
        try Data("""
            {"accountLinkID": "\(Scratch.linkID)", "displayName": "Ada Lovelace", "emailAddress": "ada@example.org",
             "username": "ada", "imapHost": "127.0.0.1", "imapPort": \(lab.dovecot.tlsPort), "imapSecurity": "tls"}
            """.utf8).write(to: account)
        let sender = try HandoffProcess(["send", "--account", account.path, "--password-stdin", "--no-qr", "--no-local-auth"])
        sender.write(HandoffProcess.testPassword + "\n")
        let code = try #require(await sender.transferCode())
        // No PROFILE: the default profile of the throwaway home's profiles.ini.
        let receiver = try HandoffProcess(["receive", "--into-thunderbird", "--ca-file", lab.dovecot.caFile.path, "--no-local-auth"],
                                          environment: lab.environment)
        receiver.write(code + "\n")
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        try await pair.senderTypesTheReceiversCode()
        try #require(await receiver.waitForOutput(containing: Asked.importQuestion) != nil)
        // The profile is locked against Thunderbird while the import is prepared.
        let refused = try lab.thunderbird.start(profile: profile)
        #expect(refused.waitForExit(timeout: HandoffProcess.patience), "Thunderbird started on a profile the import holds")
        #expect(refused.output.contains("Thunderbird is already running, but is not responding."), "\(refused.output)")
        receiver.write("yes\n")
        let (sent, received) = await pair.finish()
        #expect(received.status == 0, "\(received.all)")
        #expect(sent.status == 0, "\(sent.all)")
        #expect(received.stdout.contains("The account will go into the Thunderbird profile received (\(profile.path)); keep Thunderbird closed on it until the transfer ends.\n"))
        #expect(received.stdout.contains("Checking the account with its mail server 127.0.0.1:\(lab.dovecot.tlsPort) and storing it into the Thunderbird profile received...\n"))
        #expect(received.stdout.contains("The account ada@example.org was added to the Thunderbird profile received (\(profile.path)). The mail server accepted the password. Thunderbird shows it the next time it starts; set up its outgoing (SMTP) server there, since a transfer carries only the incoming (IMAP) settings.\n"))

        let line = try await lab.thunderbirdLogsIn(profile: profile, user: "ada")
        #expect(line.contains("Login: user=<ada>, method=PLAIN, rip=127.0.0.1, lip=127.0.0.1, mpid="), "\(line)")
        #expect(line.contains(", TLS, session=<"), "\(line)")
        let prefs = try String(contentsOf: profile.appendingPathComponent("prefs.js"), encoding: .utf8)
        #expect(prefs.contains("user_pref(\"mail.account.account1.handoff_link_id\", \"\(Scratch.linkID)\");"),
                "Thunderbird kept the link ID when it rewrote prefs.js")
        print("Thunderbird logged in (\(ContinuousClock.now - clock) for the whole test): \(line)")
    }

    @Test(.slowSlice)
    func anAccountThunderbirdHoldsTravelsToAnotherThunderbird() async throws {
        let clock = ContinuousClock.now
        let lab = try ThunderbirdLab()
        defer { lab.remove() }
        let source = try lab.profile("source")
        let destination = try lab.profile("destination")
        // Thunderbird sets the account up itself and saves its password with its login manager.
        let port = try #require(LoopbackProbe.freePort())
        let running = try lab.thunderbird.start(profile: source, marionettePort: port)
        let marionette = try Marionette(port: port)
        let key = try marionette.execute(ThunderbirdScripts.createAccount(
            host: "127.0.0.1", port: lab.dovecot.tlsPort, user: "ada", password: HandoffProcess.testPassword,
            email: "ada@example.org", name: "Ada Lovelace")) as? String
        #expect(key == "account1")
        marionette.quit()
        #expect(running.waitForExit(timeout: HandoffProcess.patience), "Thunderbird did not quit")
        try FileManager.default.removeItem(at: source.appendingPathComponent("user.js"))
        let logins = try String(contentsOf: source.appendingPathComponent("logins.json"), encoding: .utf8)
        #expect(logins.contains("\"hostname\":\"imap://127.0.0.1\""), "Thunderbird's login manager wrote the login")
        #expect(!logins.contains(HandoffProcess.testPassword))

        let sender = try HandoffProcess(["send", "--from-thunderbird", source.path, "--no-qr", "--no-local-auth"], environment: lab.environment)
        let code = try #require(await sender.transferCode(), "\(sender.stdoutSoFar)\(sender.stderrSoFar)")
        let receiver = try HandoffProcess(["receive", "--into-thunderbird", destination.path, "--ca-file", lab.dovecot.caFile.path,
                                           "--no-local-auth"], environment: lab.environment)
        receiver.write(code + "\n")
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0, "\(sent.all)")
        #expect(received.status == 0, "\(received.all)")
        #expect(sent.stdout.contains("Password: saved in the Thunderbird profile (not shown).\n"))
        #expect(sent.stdout.contains("  │ Mail server      127.0.0.1:\(lab.dovecot.tlsPort) (TLS)\n"))
        #expect(received.stdout.contains("The account ada@example.org was added to the Thunderbird profile destination ("))
        let checks = lab.dovecot.log().components(separatedBy: "Login: user=<ada>").count - 1
        #expect(checks >= 1, "the receiver checked the password with Dovecot")

        let line = try await lab.thunderbirdLogsIn(profile: destination, user: "ada")
        #expect(line.contains("Login: user=<ada>, method=PLAIN, rip=127.0.0.1, lip=127.0.0.1, mpid="), "\(line)")
        #expect(line.contains(", TLS, session=<"), "\(line)")
        print("Thunderbird to Thunderbird (\(ContinuousClock.now - clock) for the whole test): \(line)")
    }

    @Test(.slowSlice)
    func aProfileThunderbirdIsRunningOnIsLeftAlone() async throws {
        let lab = try ThunderbirdLab()
        defer { lab.remove() }
        let profile = try lab.profile("busy")
        let running = try lab.thunderbird.start(profile: profile)
        defer { running.stop() }
        let deadline = ContinuousClock.now + .seconds(60)
        while (try? FileManager.default.destinationOfSymbolicLink(atPath: profile.appendingPathComponent("lock").path)) == nil,
              ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let lockLink = try FileManager.default.destinationOfSymbolicLink(atPath: profile.appendingPathComponent("lock").path)
        let before = try? Data(contentsOf: profile.appendingPathComponent("prefs.js"))
        let result = try await HandoffProcess.run(["receive", "--into-thunderbird", profile.path, "--no-local-auth"],
                                                  stdin: "", environment: lab.environment)
        #expect(result.status == 70)
        #expect(result.stderr == "Thunderbird (process \(running.pid)) is using the profile \(profile.path), so it is left unchanged. Quit Thunderbird, then try again.\n")
        #expect(!result.stdout.contains("Paste the transfer code"), "refused before the code is asked for")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: profile.appendingPathComponent("lock").path) == lockLink,
                "Thunderbird's lock link is untouched")
        #expect(!FileManager.default.fileExists(atPath: profile.appendingPathComponent(".handoff-import").path))
        #expect((try? Data(contentsOf: profile.appendingPathComponent("prefs.js"))) == before)
        let sent = try await HandoffProcess.run(["send", "--from-thunderbird", profile.path, "--no-local-auth"], environment: lab.environment)
        #expect(sent.status == 65)
        #expect(sent.stderr == "The profile \(profile.path) holds no IMAP account. Set up the account in Thunderbird first, then try again.\n",
                "reading needs no lock: Thunderbird may run")
    }
}

/// A throwaway Dovecot, a throwaway home with Thunderbird's profile list, and headless
/// Thunderbird runs on its profiles.
struct ThunderbirdLab {
    let directory: URL
    let dovecot: ThrowawayDovecot
    let thunderbird: HeadlessThunderbird

    init() throws {
        try #require(HeadlessThunderbird.isInstalled, "Debian's thunderbird is not installed; run Scripts/setup.sh")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-thunderbird-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        dovecot = try ThrowawayDovecot.start(user: "ada", password: try SecretBytes(utf8: HandoffProcess.testPassword))
        thunderbird = HeadlessThunderbird(home: directory.appendingPathComponent("home"))
    }

    func remove() {
        dovecot.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The environment of `handoff` here: the throwaway home (its profile list, its state).
    var environment: [String: String] {
        ["HOME": thunderbird.home.path, "XDG_STATE_HOME": thunderbird.home.appendingPathComponent(".local/state").path]
    }

    /// A profile made by Thunderbird that trusts the throwaway CA.
    func profile(_ name: String) throws -> URL {
        let profile = directory.appendingPathComponent("profiles/\(name)", isDirectory: true)
        try FileManager.default.createDirectory(at: profile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try thunderbird.createProfile(named: name, at: profile)
        try ProfileTrust.trust(caFile: dovecot.caFile, in: profile)
        return profile
    }

    /// Starts Thunderbird on `profile` and returns Dovecot's log line of the login it makes by
    /// itself (it checks mail at startup), then stops it.
    func thunderbirdLogsIn(profile: URL, user: String) async throws -> String {
        let marker = "Login: user=<\(user)>"
        let before = dovecot.log().components(separatedBy: "\n").filter { $0.contains(marker) }.count
        let started = ContinuousClock.now
        let running = try thunderbird.start(profile: profile)
        defer { running.stop() }
        let deadline = started + .seconds(90)
        while ContinuousClock.now < deadline {
            let lines = dovecot.log().components(separatedBy: "\n").filter { $0.contains(marker) }
            if lines.count > before {
                print("Thunderbird logged in \(ContinuousClock.now - started) after it started.")
                return lines[before]
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("Thunderbird did not log in within 90 s. Thunderbird said: \(running.output.suffix(2000)) Dovecot: \(dovecot.log().suffix(2000))")
        throw CancellationError()
    }
}
