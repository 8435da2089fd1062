import AccountHandoff
import AccountHandoffTransport
import Foundation
import Testing
import TestProcesses

/// The typed way at the command line, without a network (Spec 12.5, 11.10): a typed code is
/// recognised at `receive`'s one prompt, a typo or six digits are refused by the code itself
/// before anything is looked up or sent (so they cost no guess), and each end says plainly when
/// the typed way cannot be used here. The transfers over a network are
/// `AccountHandoffDiscoveryTests`' `TypedWay` tests (netns hosts with Avahi daemons).
@Suite(.startsProcesses) struct CLITypedCodeTests {
    /// A code with a wrong check digit: `427 8150 9366` is right (Spec 12.4's worked example).
    static let typo = "427 8150 9367"

    @Test func aTypoIsRefusedBeforeAnyNetworkUse() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (entry, sentence) in [
            (Self.typo, HandoffError.typedCodeCheckFailed.message(for: .receiver)),
            ("427-8150-9376", HandoffError.typedCodeCheckFailed.message(for: .receiver)),
            ("123 456", "Those six digits look like the code for the sending device: type them there when it asks. Here, paste the transfer code the sending device shows (one line of about 180 characters starting with AH:), or type the 11-digit code beside its QR."),
            ("427 8150 936", "That is not a code this tool knows: the code to type has 11 digits in groups of 3, 4 and 4 (such as 427 8150 9366), and a transfer code starts with AH:; nothing was sent, so type the code again."),
        ] {
            let result = try await HandoffProcess.run(scratch.receiveArguments(["--credentials", "files"]), stdin: entry + "\n")
            #expect(result.status == 65, "\(entry): \(result.all)")
            #expect(result.stderr == sentence + "\n", "\(entry)")
            #expect(!result.all.contains("Looking on this network"), "nothing was looked up for \(entry)")
            // Nothing was claimed: the store's record of used codes was never written.
            #expect(!FileManager.default.fileExists(atPath: scratch.store.appendingPathComponent(Scratch.registryFileName).path))
        }
    }

    @Test func aReceiverWithoutAvahiSaysSoAndKeepsTheCode() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // No system bus answers here: the daemon cannot be asked.
        let result = try await HandoffProcess.run(scratch.receiveArguments(["--credentials", "files"]), stdin: "427 8150 9366\n",
                                                  environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(scratch.directory.path)/no-bus"])
        #expect(result.status == 70, "\(result.all)")
        #expect(result.stderr.hasPrefix("This device cannot look for the sending device on the network, so nothing was sent and the code still works. The Avahi daemon"),
                "\(result.stderr)")
        #expect(!result.all.contains("Looking on this network"))
    }

    @Test func aSenderOnLoopbackSaysWhyNoCodeCanBeTyped() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments())
        let output = await sender.waitForOutput(containing: "Typing a code is not offered")
        sender.signal(SIGINT)
        _ = await sender.finish()
        let line = output?.split(separator: "\n").first { $0.hasPrefix("Typing a code") }.map(String.init)
        #expect(line == "Typing a code is not offered on the local network: this device listens on 127.0.0.1, which only this computer reaches; to let a device on your network type a short code instead of scanning, start again with --address ADDRESS --lan.")
    }
}
