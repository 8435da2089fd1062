import AccountHandoffTransitRelay
import Foundation
import Testing
import TestProcesses

/// A relay that goes down while both devices use it (Spec 11.7): each device says what the
/// relay did, once, from its own side, and never blames the other device; when the relay is
/// back, the transfer completes.
@Suite(.startsProcesses, .enabled(if: TransitRelay.twistd != nil, "needs Debian's transit relay: apt-get install magic-wormhole-transit-relay"),
       .timeLimit(.minutes(10)))
struct CLIRelayDownTests {
    static func refused(_ relay: String) -> String {
        "The relay \(relay) cannot be reached right now: nothing accepts connections at its address (it may be down or restarting"
    }

    @Test(.slowSlice) func aRelayThatIsDownIsNamedOnceOnEachDeviceAndTheTransferCompletesWhenItIsBack() async throws {
        let relay = try await TransitRelay.started()
        defer { relay.stop() }
        let address = "127.0.0.1:\(relay.port)"
        let scratch = try Scratch()
        defer { scratch.remove() }
        let sender = try HandoffProcess(scratch.sendArguments(["--relay", address, "--relay-only", "--no-local-auth"]))
        let code = try #require(await sender.transferCode(), "the sender printed no transfer code")
        try #require(await sender.waitForOutput(containing: "Waiting at the relay \(address) for the receiving device.") != nil)
        relay.kill()
        let receiver = try HandoffProcess(scratch.receiveArguments(["--credentials", "files", "--no-local-auth"]))
        receiver.write(code + "\n")
        let down = Self.refused(address)
        try #require(await receiver.waitForOutput(containing: down) != nil, "the receiver never said the relay is down: \(receiver.stdoutSoFar)")
        try #require(await sender.waitForOutput(containing: down) != nil, "the sender never said the relay is down: \(sender.stdoutSoFar)")
        // Several retries (one a second) pass; each device still said it once.
        try await Task.sleep(for: .seconds(4))
        #expect(receiver.stdoutSoFar.components(separatedBy: down).count - 1 == 1, "\(receiver.stdoutSoFar)")
        #expect(sender.stdoutSoFar.components(separatedBy: down).count - 1 == 1, "\(sender.stdoutSoFar)")
        for output in [receiver.stdoutSoFar, sender.stdoutSoFar] {
            #expect(!output.contains("check that the sending device"), "a relay failure is not the other device's: \(output)")
            #expect(!output.contains("Nothing is listening at the address in the code"))
        }
        #expect(receiver.stdoutSoFar.contains("This device tries it again every second until the code runs out.\n"))
        #expect(sender.stdoutSoFar.contains("or --relay may name the wrong port). This device tries again every second.\n"))

        try relay.restart()
        let shown = try #require(await receiver.waitForOutput(containing: "Code for the sending device: "), "no pairing after the relay came back")
        let digits = try #require(shown.range(of: "Code for the sending device: ").map { String(shown[$0.upperBound...].prefix(7)) })
        #expect(receiver.stdoutSoFar.components(separatedBy: "Connecting through the relay \(address); waiting for it to pair").count - 1 == 2,
                "said at the start and again once the relay was reached: \(receiver.stdoutSoFar)")
        try #require(await sender.waitForOutput(containing: "[code/no/cancel] ") != nil)
        sender.write(digits + "\n")
        try #require(await receiver.waitForOutput(containing: "[yes/no/cancel] ") != nil)
        receiver.write("yes\n")
        let received = await receiver.finish()
        let sent = await sender.finish()
        #expect(received.status == 0, "\(received.all)")
        #expect(sent.status == 0, "\(sent.all)")
        #expect(await scratch.storedCredential == Data(HandoffProcess.testPassword.utf8))
    }
}
