import Foundation
import Testing

/// The sender's code question as the sending person meets it on a terminal (Spec 4.4): what
/// no and cancel do is said before it asks, and three wrong codes end the transfer with one
/// sentence that says what happened.
@Suite struct CLICodeQuestionTests {
    @Test func threeWrongCodesEndWithOneTrueSentence() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pair = try await TerminalPair.start(scratch, gates: .off)
        let shown = try await pair.receiversCode()
        let wrong = String(shown.prefix(6)) + (shown.last == "0" ? "1" : "0")
        for attempt in 1...3 {
            try #require(await pair.sender.waitForScreen(containing: Asked.codeQuestion, count: attempt))
            pair.sender.type(wrong + "\n")
        }
        let (sent, received) = await pair.finish()
        #expect(sent.status == 67 && received.status == 67)
        #expect(sent.screen.contains("\nA receiving device joined; it now shows a six-digit code. Type that code here. Answer no if it shows none: then a device you do not know has joined with your transfer code, and the transfer stops as declined. Answer cancel to stop the transfer for any other reason.\nType the six-digit code that the receiving device shows (no if it shows none, cancel to stop; the code expires in "))
        // The third wrong code is followed by the ending alone: no other sentence repeats it.
        #expect(sent.screen.hasSuffix("[code/no/cancel] \(wrong)\nThe code was typed wrong 3 times, so the transfer was stopped and the password was not sent. If you typed what the receiving screen showed, another device may have used your transfer code: start a new transfer and keep its code out of sight.\n"), "\(sent.screen)")
        #expect(!sent.screen.contains("You stopped the transfer") && !sent.screen.contains("The code typed did not match"))
        #expect(received.screen.hasSuffix("\nThe sending device stopped the transfer (its person declined, or the code typed there did not match the one on this screen); if you did not expect that, you may have scanned another device's code. Ask for a new code to try again. Nothing was imported.\n"))
    }
}
