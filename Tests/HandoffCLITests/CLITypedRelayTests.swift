import AccountHandoffTransitRelay
import Foundation
import Testing
import TestProcesses

/// The typed way through Debian's transit relay (Spec 11.10, 12.8), with the real `handoff`
/// binaries on this machine: the sender waits at the relay with its nameplate's token, the
/// receiver, which finds no device on the local network (no Avahi here), meets it there.
@Suite(.startsProcesses, .enabled(if: TransitRelay.twistd != nil, "needs Debian's transit relay: apt-get install magic-wormhole-transit-relay"),
       .timeLimit(.minutes(10)))
struct CLITypedRelayTests {
    static let typedPrefix = "Or type this code on the receiving device when 'handoff receive' asks for a code: "

    @Test func aTypedCodeMeetsTheSenderAtTheRelay() async throws {
        let relay = try await TransitRelay.started()
        defer { relay.stop() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let relayOption = ["--relay", "127.0.0.1:\(relay.port)"]
        let sender = try HandoffProcess(scratch.sendArguments(relayOption))
        let shown = try #require(await sender.waitForOutput(containing: Self.typedPrefix), "no typed code")
        let line = try #require(shown.split(separator: "\n").first { $0.hasPrefix(Self.typedPrefix) })
        let code = String(line.dropFirst(Self.typedPrefix.count).prefix(13))
        // The relay's sentence follows the code's line and may arrive in a later read: wait for it.
        let relaySentence = "The typed code still works through the relay 127.0.0.1:\(relay.port): the receiving device types it "
            + "with 'handoff receive --relay 127.0.0.1:\(relay.port)'."
        #expect(await sender.waitForOutput(containing: relaySentence) != nil, "\(sender.stdoutSoFar)")

        let receiver = try HandoffProcess(scratch.receiveArguments(["--credentials", "files"] + relayOption))
        let typedAt = ContinuousClock.now
        receiver.write(code + "\n")
        try #require(await receiver.waitForOutput(containing: "offers this account") != nil, "\(receiver.stdoutSoFar)\(receiver.stderrSoFar)")
        receiver.write("yes\n")
        let received = await receiver.finish()
        print("typed way through the relay, code typed to password imported: \(ContinuousClock.now - typedAt)")
        let sent = await sender.finish()
        #expect(received.status == 0, "\(received.all)")
        #expect(sent.status == 0, "\(sent.all)")
        #expect(received.stdout.hasPrefix("This device cannot look for the sending device on the local network, so it meets it at the relay 127.0.0.1:\(relay.port).\n"))
        #expect(received.stdout.hasSuffix("Done: the account was imported.\n"))
        #expect(sent.stdout.contains("The receiving device typed the right code."))
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
        #expect(await scratch.storedAccount?.metadata.linkID.description == Scratch.linkID)
    }
}

/// `handoff-dev demo --typed`: a typed transfer between two network namespaces, each with its
/// own Avahi daemon. Needs root and Debian's avahi-daemon; slow (the daemons start and the
/// receiver browses for 2 s).
@Suite(.startsProcesses, .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/avahi-daemon"), "needs root and avahi-daemon"),
       .timeLimit(.minutes(10)))
struct CLITypedDemoTests {
    @Test(.slowSlice)
    func theTypedDemoPairsByTheShortCodeAndLeavesNoNamespace() async throws {
        let demo = try HandoffProcess(["demo", "--typed", "--yes", "--qr-style", "light"])
        let pid = demo.pid
        demo.closeInput()
        let result = await demo.finish(timeout: .seconds(90))
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains("receiver │ Found it at 10.90.0.1:"))
        #expect(result.stdout.contains("sender   │ The receiving device typed the right code."))
        #expect(!result.stdout.contains("Code for the sending device"), "no six-digit code in the typed way")
        #expect(result.stdout.contains("  Link ID preserved: yes\n"))
        // Its namespaces are gone (they are named after the demo's process, which has ended).
        let left = (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []
        #expect(!left.contains { $0.hasPrefix("ahd\(pid)x") }, "\(left)")
    }
}
