import AccountHandoff
import AccountHandoffDovecot
import AccountHandoffTestSupport
import Foundation
import Testing
import TestProcesses

/// What a newcomer meets on a first use: each sentence is true in the case that prints it and
/// says what to do next, with the documented exit code, on both devices.
@Suite(.startsProcesses) struct CLIFirstUseTests {
    /// `--no-validation` checks nothing, and the ending says so instead of claiming a login.
    @Test func noValidationSaysThatNothingWasChecked() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.stderr)\(received.stderr)")
        #expect(received.stdout.contains("Storing the account in \(scratch.store.path) without checking it with its mail server (--no-validation)...\n"))
        #expect(received.stdout.contains("The account ada@example.org was imported. Its mail server was not asked whether the password works (validation was turned off); if the mail app cannot log in, check the settings and password with the sending device.\nThe account is now in the store \(scratch.store.path) as local ID "))
        #expect(received.stdout.hasSuffix("Done: the account was imported.\n"))
        #expect(!received.all.contains("accepted the password") && !received.all.contains("Checking the account"))
    }

    /// A pasted code with one digit changed: the sender at its address serves another code, and
    /// the receiver says both things that can explain it (exit 65) at once; the sender goes on
    /// waiting, and the real code still works.
    @Test func aCodeWithOneDigitChangedIsNamedAndTheRealCodeStillWorks() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let changed = try #require(Self.withOneDigitChanged(code), "no one-digit change kept the code well formed")
        let wrong = try await HandoffProcess.run(scratch.receiveArguments(), stdin: changed + "\n")
        #expect(wrong.status == 65)
        #expect(wrong.stderr == "The sending device at this code's address does not serve this code: either it shows a new code now (scan or copy that one), or this copy of the code was changed on its way (copy it again, whole). Nothing was imported.\n")
        #expect(sender.isRunning)

        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\n")
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.stderr)\(received.stderr)")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }

    /// Ctrl-C at the receiver while the mail server is being checked (here one that never
    /// answers): the import is cancelled, nothing is kept, and both devices say cancelled (68).
    @Test func ctrlCWhileTheServerIsCheckedIsCancelledOnBothDevices() async throws {
        let authority = try ThrowawayDovecot.start(user: "ada", password: try SecretBytes(utf8: HandoffProcess.testPassword))
        defer { authority.stop() }
        let silent = try SilentListener()
        defer { silent.close() }
        let scratch = try Scratch(account: Scratch.accountJSON
            .replacingOccurrences(of: "\"imap.example.org\"", with: "\"127.0.0.1\"")
            .replacingOccurrences(of: "993", with: String(silent.port)))
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch, receiver: ["--ca-file", authority.caFile.path], validated: true)
        try await pair.confirmByTypingCodes()
        #expect(await pair.receiver.waitForOutput(containing: "Checking the account with its mail server 127.0.0.1:\(silent.port)") != nil)
        // Ctrl-C once the check is under way: the server that never answers has its connection.
        #expect(await Patience.waitUntil { silent.hasConnection }, "the receiver never connected to the mail server")
        pair.receiver.signal(SIGINT)
        let (sent, received) = await pair.finish()
        #expect(received.status == 68, "\(received.stderr)")
        #expect(sent.status == 68, "\(sent.stderr)")
        #expect(received.stderr.hasSuffix("Checking the account with the mail server was cancelled. The account was not imported and your existing accounts are unchanged.\n"))
        #expect(sent.stderr.hasSuffix("The person at the receiving device cancelled the import, so the account was not kept there; start a new transfer if you want to try again.\n"))
        #expect(!received.all.contains("could not log in") && !sent.all.contains("could not log in"))
        #expect(await scratch.storedAccount == nil)
    }

    /// "TLS" and "STARTTLS", as the output prints them, are accepted like "tls" and "startTLS";
    /// an empty display name is accepted, as the sentence for a bad one says.
    @Test(arguments: [("\"imapSecurity\": \"tls\"", "\"imapSecurity\": \"TLS\""),
                      ("\"imapSecurity\": \"tls\"", "\"imapSecurity\": \"STARTTLS\""),
                      ("\"displayName\": \"Ada Lovelace\"", "\"displayName\": \"\"")])
    func accountFileSpellingsTheOutputUsesAreAccepted(field: String, replacement: String) async throws {
        let scratch = try Scratch(account: Scratch.accountJSON.replacingOccurrences(of: field, with: replacement))
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        #expect(await sender.transferCode() != nil, "\(sender.stderrSoFar)")
        sender.signal(SIGINT)
        #expect(await sender.finish().status == 68)
    }

    /// The account file's mistakes are named: the unknown security value with the two that
    /// work, and the field with the wrong type.
    @Test(arguments: [
        ("\"imapSecurity\": \"tls\"", "\"imapSecurity\": \"ssl\"",
         "The account's imapSecurity \"ssl\" is not a setting this tool knows: use \"tls\" (TLS from the first byte, usually port 993) or \"startTLS\" (usually port 143). Plaintext IMAP is not supported.\n"),
        ("\"imapPort\": 993", "\"imapPort\": \"993\"",
         "The account file ACCOUNT has the wrong type for imapPort: it must be a number such as 993 (not in quotes); see 'handoff help send' for its format.\n"),
        ("\"username\": \"ada\"", "\"username\": 7",
         "The account file ACCOUNT has the wrong type for username: it must be text in quotes; see 'handoff help send' for its format.\n"),
        ("\"imapSecurity\": \"tls\"", "\"imapSecurity\": \"tls\\u001b[2J\"",
         "The account's imapSecurity (7 characters, not shown) is not a setting this tool knows: use \"tls\" (TLS from the first byte, usually port 993) or \"startTLS\" (usually port 143). Plaintext IMAP is not supported.\n"),
        ("\"emailAddress\": \"ada@example.org\"", "\"emailAddress\": \"not-an-email\"",
         "The account's emailAddress \"not-an-email\" is not an e-mail address: it needs one @ with a name before it and a domain after it, as in ada@example.org; fix it in the account file.\n"),
        ("\"accountLinkID\": \"\(Scratch.linkID)\", ", "",
         "The account file ACCOUNT is incomplete: it lacks accountLinkID; see 'handoff help send' for its format. For an account that has none yet, make one with 'uuidgen' and keep it in the file: every later transfer of the account must carry the same one.\n"),
    ])
    func accountFileMistakesAreNamed(field: String, replacement: String, sentence: String) async throws {
        let scratch = try Scratch(account: Scratch.accountJSON.replacingOccurrences(of: field, with: replacement))
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.sendArguments())
        #expect(result.status == 65)
        #expect(result.stderr == sentence.replacingOccurrences(of: "ACCOUNT", with: scratch.accountFile.path))
    }

    /// Every question shows how long the code has left; the sender, whose code names
    /// 127.0.0.1, says how to reach another computer instead.
    @Test func questionsShowTheTimeLeftAndTheSenderSaysHowToReachAnotherComputer() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0)
        let timeLeft = /\(the code expires in (\d+ min )?\d+ s\)/
        let codeQuestion = try #require(sent.stdout.split(separator: "\n").first { $0.contains(Asked.codeQuestion) })
        #expect(codeQuestion.hasPrefix("Type the six-digit code that the receiving device shows (no if it shows none, cancel to stop; the code expires in "))
        #expect(codeQuestion.contains(/; the code expires in (\d+ min )?\d+ s\)\. \[code\/no\/cancel\]/))
        let importQuestion = try #require(received.stdout.split(separator: "\n").first { $0.contains(Asked.importQuestion) })
        #expect(importQuestion.hasPrefix("Import this account (the sending device should now say that the code was confirmed; the code expires in "))
        #expect(received.stdout.contains(timeLeft))
        #expect(sent.stdout.contains("Or run 'handoff receive' in another terminal on this computer and paste this code when it asks (never put it on a command line).\n"))
        #expect(sent.stdout.contains("To send to another computer, press Ctrl-C and start again with --address ADDRESS --lan, where ADDRESS is this computer's address on a network the other computer is on"))
        #expect(sent.stdout.contains(", or with --relay HOST:PORT, a transit relay both computers can reach.\n"))
    }

    /// Answers piped ahead of their questions wait for them, in order: the code and "yes" given
    /// at once to the receiver import the account once the sending person typed the code.
    @Test func answersPipedAheadAreTakenInOrderByTheirQuestions() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let code = try #require(await sender.transferCode())
        let receiver = try HandoffProcess(scratch.receiveArguments())
        receiver.write(code + "\nyes\n")
        let pair = TransferPair(sender: sender, receiver: receiver, code: code)
        try await pair.senderTypesTheReceiversCode()
        let (sent, received) = await pair.finish()
        #expect(sent.status == 0 && received.status == 0, "\(sent.stderr)\(received.stderr)")
        #expect(received.stdout.contains(Asked.importQuestion + "yes\n"), "the piped answer is echoed after its question")
    }

    /// The end of standard input is a cancel (68) at every question, the collision question
    /// included.
    @Test func endOfInputAtTheCollisionQuestionCancels() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let first = try await TransferPair.start(scratch)
        try await first.confirmByTypingCodes()
        #expect(await first.finish().received.status == 0)
        let before = await scratch.storeSnapshot()

        let second = try await TransferPair.start(scratch)
        try await second.senderTypesTheReceiversCode()
        #expect(await second.receiver.waitForOutput(containing: "[replace/cancel] ") != nil)
        second.receiver.closeInput()
        let (sent, received) = await second.finish()
        #expect(received.status == 68)
        #expect(sent.status == 68)
        #expect(received.stdout.contains("[replace/cancel] \n"))
        #expect(received.stderr.hasSuffix("Standard input ended before anyone chose what to do with the stored account like it, so nobody answered and the transfer was cancelled. Nothing was imported. To answer the questions yourself, give the code with --code-file FILE and run 'handoff receive' on a terminal.\n"))
        #expect(await scratch.storeSnapshot() == before)
    }

    /// A demo whose receiver cannot use its store stops at once with the receiver's reason,
    /// instead of the sender waiting for its code to expire.
    @Test func aDemoWithAStoreItCannotUseStopsAtOnce() async throws {
        let result = try await HandoffProcess.run(["demo", "--yes", "--store", "/proc/handoff-no-store"])
        #expect(result.status == 70)
        #expect(result.all.contains("receiver │ The store /proc/handoff-no-store cannot be created: the folder /proc does not take new folders; choose another --store directory.\n"))
        #expect(result.stderr.hasSuffix("The demo transfer did not complete (sender exit code 68, receiver exit code 70); see the messages above.\n"))
    }

    /// `--version` names the release and the protocol version.
    @Test func versionNamesTheReleaseAndTheProtocol() async throws {
        let result = try await HandoffProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "handoff 3.0.0 (protocol version \(SessionPayload.currentVersion))\n")
    }

    /// The code with one digit changed that still decodes, with the same address and expiry.
    private static func withOneDigitChanged(_ code: String) -> String? {
        guard let original = try? SessionPayload(text: code) else { return nil }
        let characters = Array(code)
        for index in stride(from: characters.count / 2, to: characters.count, by: 1) {
            guard let digit = characters[index].wholeNumberValue else { continue }
            var changed = characters
            changed[index] = Character(String((digit + 1) % 10))
            let text = String(changed)
            if let payload = try? SessionPayload(text: text), payload.rendezvous == original.rendezvous,
               payload.expiry == original.expiry, payload.transferID != original.transferID {
                return text
            }
        }
        return nil
    }
}
