import AccountHandoff
import AccountHandoffImport
import AccountHandoffThunderbird
import Foundation
import Testing
import TestProcesses

/// `--from-thunderbird` and `--into-thunderbird` without a running Thunderbird: the profile
/// and account choice, the sentences for bad profiles (before the code is asked for, the
/// profile unchanged), and what the help now says.
@Suite(.startsProcesses) struct CLIThunderbirdOptionTests {
    @Test func helpSendNoLongerClaimsAStoreFileWorks() async throws {
        let help = try await HandoffProcess.run(["help", "send"])
        #expect(!help.stdout.contains("A file from a receiver's store works too."))
        #expect(help.stdout.contains("No store writes such a file\nfor you: to send an account that Thunderbird holds, use --from-thunderbird instead.\n"))
        #expect(help.stdout.hasPrefix("""
            Usage: handoff send (--account FILE (--password-stdin | --password-file FILE)
                     | --from-thunderbird [PROFILE] [--account EMAIL]) [--address IPV4] [--lan]

            """))
    }

    @Test func severalProfilesWithoutADefaultAreListed() async throws {
        let home = try Self.home(profiles: ["a": nil, "b": nil])
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await HandoffProcess.run(["receive", "--into-thunderbird", "--no-local-auth"], environment: ["HOME": home.path])
        #expect(result.status == 64)
        #expect(result.stderr == """
            Thunderbird has several profiles and none is the default; name one after --into-thunderbird.
            Its profiles:
              a  \(home.path)/.thunderbird/a
              b  \(home.path)/.thunderbird/b

            """)
        let named = try await HandoffProcess.run(["send", "--from-thunderbird", "c", "--no-local-auth"], environment: ["HOME": home.path])
        #expect(named.status == 64)
        #expect(named.stderr.hasPrefix("Thunderbird has no profile named c; name one of its profiles after --from-thunderbird.\nIts profiles:\n  a  "))
    }

    @Test func severalAccountsAreListedWithTheirServers() async throws {
        let home = try Self.home(profiles: ["default": """
            user_pref("mail.accountmanager.accounts", "account1,account2");
            user_pref("mail.account.account1.server", "server1");
            user_pref("mail.account.account1.identities", "id1");
            user_pref("mail.server.server1.type", "imap");
            user_pref("mail.server.server1.hostname", "imap.example.org");
            user_pref("mail.server.server1.userName", "ada");
            user_pref("mail.server.server1.socketType", 3);
            user_pref("mail.identity.id1.useremail", "ada@example.org");
            user_pref("mail.account.account2.server", "server2");
            user_pref("mail.account.account2.identities", "id2");
            user_pref("mail.server.server2.type", "imap");
            user_pref("mail.server.server2.hostname", "mail.example.com");
            user_pref("mail.server.server2.userName", "ada");
            user_pref("mail.identity.id2.useremail", "ada@example.com");

            """])
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await HandoffProcess.run(["send", "--from-thunderbird", "--no-local-auth"], environment: ["HOME": home.path])
        #expect(result.status == 64)
        #expect(result.stderr == """
            The Thunderbird profile default holds several IMAP accounts; choose one with --account EMAIL.
            Its IMAP accounts:
              ada@example.org  imap.example.org:993
              ada@example.com  mail.example.com:143  (cannot be sent)

            """)
        let unsupported = try await HandoffProcess.run(["send", "--from-thunderbird", "--account", "ADA@example.com", "--no-local-auth"],
                                                       environment: ["HOME": home.path])
        #expect(unsupported.status == 65)
        #expect(unsupported.stderr == "The account ada@example.com cannot be transferred: its IMAP server is reached without TLS, and a password only travels to accounts that use TLS or STARTTLS. Switch the account to SSL/TLS or STARTTLS in Thunderbird's server settings, then try again.\n")
        let passwords = try await HandoffProcess.run(["send", "--from-thunderbird", "--password-stdin"], environment: ["HOME": home.path])
        #expect(passwords.status == 64)
        #expect(passwords.stderr.hasPrefix("With --from-thunderbird the password comes from the Thunderbird profile, so --password-stdin and --password-file are not used."))
    }

    @Test func aBadProfileIsRefusedBeforeTheCodeIsAskedFor() async throws {
        let home = try Self.home(profiles: ["default": "user_pref(\"a\", 1);\n/* not Thunderbird's */\n"])
        defer { try? FileManager.default.removeItem(at: home) }
        let profile = home.appendingPathComponent(".thunderbird/default")
        let before = try FileManager.default.contentsOfDirectory(atPath: profile.path).sorted()
        let result = try await HandoffProcess.run(["receive", "--into-thunderbird", profile.path, "--no-local-auth"], environment: ["HOME": home.path])
        #expect(result.status == 65)
        #expect(result.stderr == "The preferences file \(profile.path)/prefs.js could not be read at line 2 (the line is not a user_pref(...) statement), so the profile is left unchanged. Start Thunderbird with the profile once, which rewrites the file, or restore it from a backup.\n")
        #expect(result.stdout.isEmpty, "nothing was asked")
        #expect(try FileManager.default.contentsOfDirectory(atPath: profile.path).sorted() == before)
        // Under LANG=de the whole sentence is German, the diagnosis inside it too.
        let german = try await HandoffProcess.run(["send", "--from-thunderbird", profile.path, "--no-local-auth"],
                                                  environment: CLIGermanOutputTests.german.merging(["HOME": home.path]) { $1 })
        #expect(german.status == 65)
        #expect(german.stderr == "Die Einstellungsdatei \(profile.path)/prefs.js konnte in Zeile 2 nicht gelesen werden (die Zeile ist keine user_pref(...)-Anweisung), daher bleibt das Profil unverändert. Starten Sie Thunderbird einmal mit dem Profil, das die Datei neu schreibt, oder stellen Sie sie aus einer Sicherung wieder her.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: profile.path).sorted() == before)
        let store = try await HandoffProcess.run(["receive", "--into-thunderbird", profile.path, "--store", "x"], environment: ["HOME": home.path])
        #expect(store.status == 64)
        #expect(store.stderr.hasPrefix("--store is for a store; with --into-thunderbird the account goes into the Thunderbird profile."))
    }

    /// A throwaway home whose `~/.thunderbird/profiles.ini` lists `profiles` (name to prefs.js).
    static func home(profiles: [String: String?]) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-tb-home-\(UUID().uuidString)")
        let root = home.appendingPathComponent(".thunderbird")
        var list = ""
        for (index, (name, prefs)) in profiles.sorted(by: { $0.key < $1.key }).enumerated() {
            let folder = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let prefs { try Data(prefs.utf8).write(to: folder.appendingPathComponent("prefs.js")) }
            list += "[Profile\(index)]\nName=\(name)\nIsRelative=1\nPath=\(name)\n\n"
        }
        try Data(list.utf8).write(to: root.appendingPathComponent("profiles.ini"))
        return home
    }
}

/// A profile protected by a primary password: asked for on the terminal, never echoed, and a
/// wrong one is named as such.
@Suite(.startsProcesses) struct CLIThunderbirdPrimaryPasswordTests {
    @Test func thePrimaryPasswordIsAskedForWithoutEcho() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-tb-primary-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile = folder.appendingPathComponent("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let passwordFile = folder.appendingPathComponent("nss-password")
        try Data("primary-secret-7Q\n".utf8).write(to: passwordFile)
        let certutil = Process()
        certutil.executableURL = URL(fileURLWithPath: "/usr/bin/certutil")
        certutil.arguments = ["-N", "-d", "sql:" + profile.path, "-f", passwordFile.path]
        try certutil.run()
        certutil.waitUntilExit()
        try #require(certutil.terminationStatus == 0)
        let importer = ThunderbirdImporter(profile: ThunderbirdProfile(name: "locked", directory: profile), validator: AcceptAll())
        importer.usePrimaryPassword(try SecretBytes(utf8: "primary-secret-7Q"))
        let account = try AccountMetadata(linkID: AccountLinkID(uuid: UUID()), displayName: "Ada Lovelace", emailAddress: "ada@example.org",
                                          username: "ada", imapHost: "imap.example.org", imapPort: 993, imapSecurity: .tls)
        let outcome = await (try importer.prepare(account)).complete(metadata: account, credential: try SecretBytes(utf8: HandoffProcess.testPassword))
        try #require(outcome.receiptStatus == .imported, "\(outcome.message)")
        await importer.waitUntilReleased()

        let wrong = try TerminalProcess(["send", "--from-thunderbird", profile.path, "--no-qr", "--no-local-auth"])
        #expect(await wrong.waitForScreen(containing: "Primary password of the Thunderbird profile profile (not shown): "))
        #expect(!wrong.echoes, "the primary password is typed without echo")
        wrong.type("not-the-primary\n")
        #expect(await wrong.finish() == (65, false))
        #expect(wrong.screen.contains("The primary password does not unlock the saved passwords of the profile \(profile.path). Type the primary password you use in Thunderbird, then try again."))
        #expect(!wrong.screen.contains("not-the-primary"))

        let right = try TerminalProcess(["send", "--from-thunderbird", profile.path, "--no-qr", "--no-local-auth"])
        #expect(await right.waitForScreen(containing: "Primary password of the Thunderbird profile profile (not shown): "))
        right.type("primary-secret-7Q\n")
        #expect(await right.waitForScreen(containing: "Transfer code: AH:"))
        #expect(right.screen.contains("Password: saved in the Thunderbird profile (not shown)."))
        right.signal(SIGINT)
        _ = await right.finish()
        #expect(!right.screen.contains("primary-secret-7Q") && !right.screen.contains(HandoffProcess.testPassword))

        let piped = try await HandoffProcess.run(["send", "--from-thunderbird", profile.path, "--no-local-auth"], stdin: "primary-secret-7Q\n")
        #expect(piped.status == 65)
        #expect(piped.stderr == "The saved passwords of the Thunderbird profile profile are protected by a primary password, which can only be typed at a terminal. Run the command in a terminal, or remove the primary password in Thunderbird's settings.\n")
    }
}

/// Accepts every account without a server (the profile is only made here).
private struct AcceptAll: AccountValidator {
    func validate(_ account: AccountMetadata, credential: SecretBytes) async -> ValidationResult { .notChecked }
}
