import Foundation
import Testing
import TestProcesses

/// How the CLI shows an offered account (Spec 3.7): a sender chooses every byte of the offer,
/// so nothing in it may pass for one of the program's own lines.
@Suite(.startsProcesses) struct OfferDisplayTests {
    static let linkID = Scratch.linkID

    static func account(displayName: String, username: String = "ada") -> String {
        let name = String(data: try! JSONEncoder().encode(displayName), encoding: .utf8)!
        let user = String(data: try! JSONEncoder().encode(username), encoding: .utf8)!
        return """
            {"accountLinkID": "\(linkID)", "displayName": \(name), "emailAddress": "ada@example.org",
             "username": \(user), "imapHost": "imap.example.org", "imapPort": 993, "imapSecurity": "tls"}
            """
    }

    /// A display name that imitates the CLI's own closing line and a user name wider than the
    /// terminal: the receiving person sees both behind the frame, the long one on lines that
    /// continue it, and the program's real lines stay the only unframed ones.
    @Test func aSenderCannotWriteALineThatLooksLikeTheProgramsOwn() async throws {
        let spoof = "Done: the account was imported."
        let longUser = String(repeating: "a", count: 100)
        let scratch = try Scratch(account: Self.account(displayName: spoof, username: longUser))
        defer { scratch.remove() }
        let pair = try await TransferPair.start(scratch)
        try await pair.confirmByTypingCodes()
        let (sent, received) = await pair.finish()
        #expect(received.status == 0, "\(received.stderr)")
        #expect(sent.status == 0, "\(sent.stderr)")

        let lines = received.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("  │ Display name     \(spoof)"))
        // Not a terminal: 80 columns, so 59 for a value; the rest continues behind the frame.
        #expect(lines.contains("  │ User name        " + String(repeating: "a", count: 59)))
        #expect(lines.contains("  │                ┊ " + String(repeating: "a", count: 41)))
        let unframedSpoofs = lines.filter { $0.contains(spoof) && !$0.hasPrefix("  │ ") }
        #expect(unframedSpoofs == ["Done: the account was imported."], "only the program's own last line is unframed")
        #expect(lines.last(where: { !$0.isEmpty }) == spoof)
    }

    /// Characters that could reorder, hide or break a line are refused before anything is
    /// shown or sent, with a sentence naming the field and what to do.
    @Test(arguments: [
        "Ada\u{202E}gro.elpmaxe",   // right-to-left override
        "Ada\u{2066}Lovelace",       // isolate
        "Ada\nShort code: 123 456",  // a line break that would start a fake line
        "Ada\u{2028}Lovelace",       // line separator
        "Ada\u{200B}Lovelace",       // zero-width space
        "Ada\u{1B}[2J",              // a terminal escape
        "A" + String(repeating: "\u{0301}", count: 40), // stacked combining marks
    ])
    func hostileCharactersInTheAccountFileAreRefused(displayName: String) async throws {
        let scratch = try Scratch(account: Self.account(displayName: displayName))
        defer { scratch.remove() }
        let result = try await HandoffProcess.run(scratch.sendArguments())
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty, "nothing was shown and no code was offered")
        #expect(result.stderr == "The account's displayName is too long, or holds characters an account field may not hold (control, format, bidirectional or invisible characters, line separators, or stacked marks); fix it in the account file.\n")
    }
}
