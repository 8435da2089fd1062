import Foundation
import Testing
import TestProcesses

/// A sending device that lies about the account (`hostile-sender`, the real sender state
/// machine over the reference transport, sealing an offer no honest sender sends, Spec 3.4):
/// the real `handoff receive` refuses it, names what is wrong with the account, and imports
/// nothing.
@Suite(.startsProcesses) struct CLIHostileSenderTests {
    static let badPort = "The transfer failed. The account's mail server port is not valid (a port is a number from 1 to 65535, never 0); fix the account on the sending device, then ask the sending device for a new code. Nothing was imported.\n"
    static let badSecurity = "The transfer failed. The account's connection security is not one this app knows (it knows TLS and STARTTLS); check the account on the sending device and update the app there, then ask the sending device for a new code. Nothing was imported.\n"

    @Test(arguments: [
        (["--port", "0"], badPort),
        (["--security", "0"], badSecurity),
        (["--security", "3"], badSecurity),
    ])
    func anOfferWithABadPortOrSecurityIsRefusedForWhatItIs(forged: [String], sentence: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A store that already holds an account, so that "unchanged" is more than "empty".
        let first = try await TransferPair.start(scratch)
        try await first.confirmByTypingCodes()
        #expect(await first.finish().received.status == 0)
        let before = await scratch.storeSnapshot()
        #expect(before.count == 1)

        let hostile = try HandoffProcess(forged, program: "hostile-sender")
        let code = try #require(await hostile.transferCode())
        let received = try await HandoffProcess.run(scratch.receiveArguments(), stdin: code + "\n")
        #expect(received.status == 70)
        #expect(received.stderr == sentence)
        #expect(!received.stdout.contains("offers this account"), "the forged account was never shown")
        #expect(await hostile.waitForOutput(containing: "Receiver joined; offer sent with ") != nil)
        #expect(await hostile.finish().status == 0, "the hostile sender saw the receiver end")
        #expect(await scratch.storeSnapshot() == before)
    }

    /// The same lab with an honest port and security: its offer is shown, so the refusals
    /// above are the receiver's check of those fields and nothing else.
    @Test func theLabsOfferWithHonestFieldsIsShown() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let hostile = try HandoffProcess(["--port", "993", "--security", "1"], program: "hostile-sender")
        let code = try #require(await hostile.transferCode())
        let received = try await HandoffProcess.run(scratch.receiveArguments(), stdin: code + "\n")
        #expect(received.stdout.contains("offers this account:\n"))
        #expect(received.stdout.contains("  │ Mail server      imap.example.org:993 (TLS)\n"))
        #expect(received.status == 68, "standard input ended at the import question: \(received.stderr)")
        _ = await hostile.finish()
        #expect(await scratch.storeSnapshot().isEmpty)
    }
}
