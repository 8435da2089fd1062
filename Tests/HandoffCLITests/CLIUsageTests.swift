import Foundation
import Testing
import TestProcesses

/// Help, usage errors and exit codes of the built binary.
@Suite(.startsProcesses) struct CLIUsageTests {
    @Test func overviewListsEveryCommandAndExitCode() async throws {
        let result = try await HandoffProcess.run(["help"])
        #expect(result.status == 0)
        for command in ["send", "receive", "accounts", "inspect", "qr", "help"] {
            #expect(result.stdout.contains("  \(command) "), "\(command)")
        }
        for command in HandoffProcess.developerCommands {
            #expect(!result.stdout.contains("  \(command) "), "the shipped handoff lists the developer tool's \(command)")
        }
        for code in ["0", "64", "65", "66", "67", "68", "69", "70", "71"] {
            #expect(result.stdout.contains("\n  \(code) "), "exit code \(code)")
        }
        #expect(try await HandoffProcess.run(["--help"]).stdout == result.stdout)
    }

    /// The developer tool has the commands the shipped `handoff` leaves out, each with its help.
    @Test(arguments: ["demo", "bench", "vectors"])
    func everyDeveloperCommandHasHelp(command: String) async throws {
        let overview = try await HandoffProcess.run(["help", command])
        #expect(overview.status == 0)
        #expect(overview.stdout.hasPrefix("Usage: handoff-dev \(command)"))
        let viaFlag = try await HandoffProcess.run([command, "--help"])
        #expect(viaFlag.status == 0 && viaFlag.stdout == overview.stdout)
        let shipped = try await HandoffProcess.run(["help", command], program: "handoff")
        #expect(shipped.status == 64)
    }

    @Test(arguments: ["send", "receive", "inspect", "qr"])
    func everyCommandHasHelp(command: String) async throws {
        let viaHelp = try await HandoffProcess.run(["help", command])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout.hasPrefix("Usage: handoff \(command)"))
        #expect(viaHelp.stdout.contains("Exit codes:"))
        let viaFlag = try await HandoffProcess.run([command, "--help"])
        #expect(viaFlag.status == 0)
        #expect(viaFlag.stdout == viaHelp.stdout)
    }

    /// The manual must not teach what the commands refuse: a code as an argument, `--yes`
    /// outside the demo, `--replace`.
    @Test func helpTeachesOnlyTheFormsTheCommandsAccept() async throws {
        let send = try await HandoffProcess.run(["help", "send"])
        #expect(!send.stdout.contains("--yes"), "send refuses --yes, but its help offers it")
        #expect(send.stdout.contains("--lan"), "send's help does not explain --lan")
        for command in ["receive", "inspect", "qr"] {
            let help = try await HandoffProcess.run(["help", command])
            #expect(!help.stdout.contains("PAYLOAD"), "'help \(command)' still takes the code as an argument")
            #expect(help.stdout.contains("--code-file"), "'help \(command)' does not name --code-file")
        }
        let receive = try await HandoffProcess.run(["help", "receive"])
        #expect(!receive.stdout.contains("--yes") && !receive.stdout.contains("--replace"))
        #expect(receive.stdout.contains("--on-conflict"))
    }

    @Test func noCommandOrUnknownCommandIsUsage() async throws {
        let none = try await HandoffProcess.run([])
        #expect(none.status == 64)
        #expect(none.stderr == "handoff needs a command. Run 'handoff help' to see them.\n")
        let unknown = try await HandoffProcess.run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "'frobnicate' is not a handoff command. Run 'handoff help' to see how to use it.\n")
    }

    /// A slip of a letter or two in a command, and an account file given without --account,
    /// get a suggestion.
    @Test func slipsGetASuggestion() async throws {
        let typo = try await HandoffProcess.run(["recieve"])
        #expect(typo.status == 64)
        #expect(typo.stderr == "'recieve' is not a handoff command. Did you mean 'handoff receive'? Run 'handoff help' to see how to use it.\n")
        let bare = try await HandoffProcess.run(["send", "ada.json"])
        #expect(bare.status == 64)
        #expect(bare.stderr == "'handoff send' takes no arguments, but got more. To send the account in ada.json, run 'handoff send --account ada.json --password-stdin' (or with --password-file FILE). Run 'handoff help send' to see how to use it.\n")
        let notAFile = try await HandoffProcess.run(["send", "hunter2"])
        #expect(notAFile.stderr == "'handoff send' takes no arguments, but got more. To send an account, name its settings file with --account FILE. Run 'handoff help send' to see how to use it.\n")
        #expect(!notAFile.all.contains("hunter2"), "an argument that may be a password is never repeated")
    }

    @Test func unknownOptionIsNamedWithoutItsValue() async throws {
        let result = try await HandoffProcess.run(["inspect", "--colour=very-secret-value"])
        #expect(result.status == 64)
        #expect(result.stderr == "The option --colour is not known to 'handoff inspect'. Run 'handoff help inspect' to see how to use it.\n")
    }

    @Test(arguments: [["--password", HandoffProcess.testPassword], ["--password=" + HandoffProcess.testPassword]])
    func passwordOnTheCommandLineIsRefusedWithoutEcho(arguments: [String]) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(["send", "--account", scratch.accountFile.path] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr == "Passwords are never taken from the command line, where other users and the shell history can see them; use --password-stdin or --password-file FILE.\n")
    }

    @Test func sendNeedsExactlyOnePasswordSource() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let neither = try await HandoffProcess.run(["send", "--account", scratch.accountFile.path])
        #expect(neither.status == 64)
        #expect(neither.stderr.hasPrefix("'handoff send' needs the password from exactly one of --password-stdin or --password-file FILE."))
        let both = try await HandoffProcess.run(scratch.sendArguments(["--password-stdin"]))
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("'handoff send' needs the password from exactly one of --password-stdin or --password-file FILE."))
        let noAccount = try await HandoffProcess.run(["send", "--password-stdin"])
        #expect(noAccount.status == 64)
        #expect(noAccount.stderr.hasPrefix("'handoff send' needs --account FILE"))
    }

    @Test func badOptionValuesAreUsageErrors() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let lifetime = try await HandoffProcess.run(scratch.sendArguments(["--lifetime", "5"]))
        #expect(lifetime.status == 64)
        #expect(lifetime.stderr.hasPrefix("The option --lifetime takes a whole number from 30 to 600."))
        let ecc = try await HandoffProcess.run(["qr", "--ecc", "Z"], stdin: try Scratch.validCode().text + "\n")
        #expect(ecc.status == 64)
        #expect(ecc.stderr.hasPrefix("The option --ecc takes L, M, Q or H."))
        let extra = try await HandoffProcess.run(["inspect", "-", "-"])
        #expect(extra.status == 64)
        #expect(extra.stderr.hasPrefix("'handoff inspect' takes only '-' (read the code from standard input, the default), but got more."))
        let conflict = try await HandoffProcess.run(scratch.receiveArguments(["--on-conflict", "overwrite"]))
        #expect(conflict.status == 64)
        #expect(conflict.stderr.hasPrefix("The option --on-conflict takes replace, keep or cancel."))
        let replace = try await HandoffProcess.run(scratch.receiveArguments(["--replace"]))
        #expect(replace.status == 64)
        #expect(replace.stderr == "--replace is now '--on-conflict replace' (or keep, or cancel); without it you are asked.\n")
    }

    @Test func vectorsCommandWritesTheCommittedFilesByteForByte() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-vectors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await HandoffProcess.run(["vectors", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Vectors")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path).sorted()) ?? []
        #expect(!names.isEmpty)
        for name in names {
            #expect(try Data(contentsOf: out.appendingPathComponent(name)) == Data(contentsOf: committed.appendingPathComponent(name)), "\(name)")
        }
        #expect(try await HandoffProcess.run(["vectors"]).status == 64)
    }

    @Test func invalidAccountFilesAreRefusedWithTheReason() async throws {
        let withPassword = try Scratch(account: #"{"accountLinkID": "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162", "password": "x"}"#)
        defer { withPassword.remove() }
        let refused = try await HandoffProcess.run(withPassword.sendArguments())
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("must not contain a password"))

        let missing = try Scratch(account: #"{"accountLinkID": "6F1C2B9A-4D3E-4F5A-8B7C-1D2E3F405162", "emailAddress": "a@b"}"#)
        defer { missing.remove() }
        let incomplete = try await HandoffProcess.run(missing.sendArguments())
        #expect(incomplete.status == 65)
        #expect(incomplete.stderr.contains("is incomplete: it lacks displayName, imapHost, imapPort, imapSecurity, username"))

        let plaintext = try Scratch(account: Scratch.accountJSON.replacingOccurrences(of: "\"tls\"", with: "\"none\""))
        defer { plaintext.remove() }
        let insecure = try await HandoffProcess.run(plaintext.sendArguments())
        #expect(insecure.status == 65)
        #expect(insecure.stderr == "The account's imapSecurity \"none\" is not a setting this tool knows: use \"tls\" (TLS from the first byte, usually port 993) or \"startTLS\" (usually port 143). Plaintext IMAP is not supported.\n")
    }

    @Test func emptyOrMissingPasswordIsInvalidInput() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let empty = try await HandoffProcess.run(["send", "--account", scratch.accountFile.path, "--password-stdin"], stdin: "\n")
        #expect(empty.status == 65)
        #expect(empty.stderr == "The password is empty; put it on the first line of standard input or in the password file.\n")
        let missing = try await HandoffProcess.run(["send", "--account", scratch.accountFile.path, "--password-file", "/nonexistent/pw"])
        #expect(missing.status == 65)
        #expect(missing.stderr == "The password file /nonexistent/pw does not exist; check the path.\n")
    }
}
