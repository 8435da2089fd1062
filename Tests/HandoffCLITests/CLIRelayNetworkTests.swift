import AccountHandoffTransitRelay
import Foundation
import Testing
import TestProcesses

/// Spec 11.8 across a real network: sender, receiver and relay as three hosts (network
/// namespaces, see ``NetworkLab``), the receiver unable to reach the sender, the real `handoff`
/// binaries on either side and Debian's `twistd3 transitrelay` on the relay's host; the direct
/// attempt fails at once (no route) or hears nothing (dropped packets: the relay goes after the
/// 2-second head start). It runs in the default suite (about 3 s) when this process may create namespaces (root, iproute2,
/// the relay installed); otherwise it is skipped with the reason.
@Suite(.startsProcesses, .enabled(if: NetworkLab.unavailableReason == nil, Comment(rawValue: NetworkLab.unavailableReason ?? "")), .timeLimit(.minutes(10)))
struct CLIRelayNetworkTests {
    @Test(arguments: NetworkLab.Isolation.allCases)
    func aReceiverOnAnotherNetworkGetsTheAccountThroughTheRelay(_ isolation: NetworkLab.Isolation) async throws {
        let lab = try await NetworkLab.created(isolation)
        defer { lab.remove() }
        let relay = try await TransitRelay.started(host: NetworkLab.relayAddress, namespace: lab.relay)
        defer { relay.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let relayName = "\(NetworkLab.relayAddress):\(relay.port)"

        let sender = try Self.sender(in: lab, scratch: scratch, relay: relayName)
        let shown = try #require(await sender.waitFor("Transfer code: AH:"), "the sender printed no code")
        let code = try #require(shown.split(separator: "\n").first { $0.hasPrefix("Transfer code: ") }?.dropFirst("Transfer code: ".count))
        let receiver = try NamespacedHandoff(namespace: lab.receiver, [
            "receive", "--store", scratch.store.path, "--credentials", "files", "--no-validation", "--no-local-auth",
        ])
        receiver.write(code + "\n")
        let asked = try #require(await receiver.waitFor("Code for the sending device: "), "the receiver showed no code: \(receiver.text)")
        let digits = try #require(asked.range(of: "Code for the sending device: ").map { String(asked[$0.upperBound...].prefix(7)) })
        try #require(await sender.waitFor("[code/no/cancel] ") != nil, "the sender never asked for the code: \(sender.text)")
        sender.write(digits + "\n")
        try #require(await receiver.waitFor("[yes/no/cancel] ") != nil, "the receiver was never offered the account: \(receiver.text)")
        receiver.write("yes\n")
        let receivedStatus = await receiver.finish()
        let sentStatus = await sender.finish()

        #expect(receivedStatus == 0, "\(receiver.text)")
        #expect(sentStatus == 0, "\(sender.text)")
        let direct = "\(NetworkLab.senderAddress):"
        #expect(sender.text.contains("Waiting at the relay \(relayName) for the receiving device."))
        #expect(receiver.text.contains("Connecting directly to \(direct)"))
        switch isolation {
        case .noRoute:
            #expect(receiver.text.contains("The direct connection to \(direct)"))
            #expect(receiver.text.contains("failed: This device has no route to the address in the code"))
            #expect(!receiver.text.contains("No answer directly"), "the direct attempt failed at once, before the head start")
        case .silentDrop:
            #expect(receiver.text.contains("No answer directly from \(direct)"))
            #expect(receiver.text.contains("within 2 s; trying the relay too."))
        }
        #expect(receiver.text.contains("Connecting through the relay \(relayName); waiting for it to pair this device with the sending device..."))
        #expect(receiver.text.contains("Connected to the sending device through the relay \(relayName)."))
        await Self.expectImportedAsSent(scratch, sender: sender, receiver: receiver)

        // Measured, never asserted: when the receiver said what, from its start.
        let marks = ["The direct connection to": "direct attempt failed", "No answer directly": "head start over", "Connected to the sending device": "connected through the relay",
                     "Code for the sending device": "code shown", "Done: the account was imported": "imported"]
        let report = marks.compactMap { key, name in receiver.secondsUntilLine(containing: key).map { (name, $0) } }.sorted { $0.1 < $1.1 }
            .map { String(format: "%@ %.3f s", $0.0, $0.1) }.joined(separator: ", ")
        print("network-namespace relay transfer (\(isolation)), receiver timeline: \(report)")
        print(receiver.text.split(separator: "\n").filter { $0.hasPrefix("Transfer ") || $0.hasPrefix("Connect") || $0.hasPrefix("The direct") || $0.hasPrefix("No answer") }
            .map { "receiver | " + $0 }.joined(separator: "\n"))
    }

    /// The typed way (Spec 11.10, 12.8) across the same three hosts: the sender waits at the
    /// relay with its nameplate's token, the receiver on the other network (no Avahi there, and
    /// no route to the sender) types the short code and meets it at the relay.
    @Test func aTypedCodeMeetsTheSenderAtTheRelayFromAnotherNetwork() async throws {
        let lab = try await NetworkLab.created(.noRoute)
        defer { lab.remove() }
        let relay = try await TransitRelay.started(host: NetworkLab.relayAddress, namespace: lab.relay)
        defer { relay.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let relayName = "\(NetworkLab.relayAddress):\(relay.port)"
        let typedPrefix = CLITypedRelayTests.typedPrefix

        let sender = try Self.sender(in: lab, scratch: scratch, relay: relayName)
        let shown = try #require(await sender.waitFor(typedPrefix), "the sender showed no typed code: \(sender.text)")
        let line = try #require(shown.split(separator: "\n").first { $0.hasPrefix(typedPrefix) })
        let code = String(line.dropFirst(typedPrefix.count).prefix(13))
        let receiver = try NamespacedHandoff(namespace: lab.receiver, [
            "receive", "--store", scratch.store.path, "--credentials", "files", "--no-validation", "--no-local-auth", "--relay", relayName,
        ])
        receiver.write(code + "\n")
        try #require(await receiver.waitFor("[yes/no/cancel] ") != nil, "the receiver was never offered the account: \(receiver.text)")
        receiver.write("yes\n")
        let receivedStatus = await receiver.finish()
        let sentStatus = await sender.finish()

        #expect(receivedStatus == 0, "\(receiver.text)")
        #expect(sentStatus == 0, "\(sender.text)")
        #expect(receiver.text.contains("so it meets it at the relay \(relayName)."), "\(receiver.text)")
        #expect(!receiver.text.contains("Code for the sending device"), "no six-digit code in the typed way")
        #expect(sender.text.contains("The receiving device typed the right code."), "\(sender.text)")
        await Self.expectImportedAsSent(scratch, sender: sender, receiver: receiver)
        if let imported = receiver.secondsUntilLine(containing: "Done: the account was imported") {
            print(String(format: "typed way through the relay between network namespaces, receiver start to imported: %.3f s", imported))
        }
    }

    /// The sending `handoff` on the sender's host, listening on its network address and waiting
    /// at `relay` too, without a QR or a gate.
    private static func sender(in lab: NetworkLab, scratch: Scratch, relay relayName: String) throws -> NamespacedHandoff {
        try NamespacedHandoff(namespace: lab.sender, [
            "send", "--account", scratch.accountFile.path, "--password-file", scratch.passwordFile.path, "--no-qr", "--no-local-auth",
            "--lifetime", String(Scratch.longestLifetime), "--address", NetworkLab.senderAddress, "--lan", "--relay", relayName,
        ])
    }

    /// The receiver imported the account as sent (password and AccountLinkID), and neither side
    /// printed the password.
    private static func expectImportedAsSent(_ scratch: Scratch, sender: NamespacedHandoff, receiver: NamespacedHandoff) async {
        #expect(receiver.text.hasSuffix("Done: the account was imported.\n"))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
        #expect(await scratch.storedAccount?.metadata.linkID.description == Scratch.linkID)
        #expect(!sender.text.contains(HandoffProcess.testPassword) && !receiver.text.contains(HandoffProcess.testPassword))
    }
}
